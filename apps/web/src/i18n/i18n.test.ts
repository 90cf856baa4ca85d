import { errorStatus } from '@atendi/shared';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };
import { translations } from './i18n';

// The merged texts: the shell's files plus every feature's own.
const { es, en } = translations as unknown as { es: Tree; en: Tree };

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [`${prefix}${key}`.replace(PLURAL_SUFFIX, '')]
      : keysOf(value, `${prefix}${key}.`),
  );

describe('translations', () => {
  it('have the same keys in Spanish and English', () => {
    expect([...new Set(keysOf(en))].sort()).toEqual([...new Set(keysOf(es))].sort());
  });

  it('have no empty texts', () => {
    const values = (tree: Tree): string[] =>
      Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : values(value)));
    expect(values(es).filter((value) => !value.trim())).toEqual([]);
    expect(values(en).filter((value) => !value.trim())).toEqual([]);
  });

  it('translate every error code the API can answer', () => {
    for (const code of Object.keys(errorStatus)) {
      expect(es.errors).toHaveProperty(code);
      expect(en.errors).toHaveProperty(code);
    }
  });
});
