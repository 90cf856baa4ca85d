import { errorStatus } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { changeLanguage, i18n, loadTexts } from './i18n';

type Tree = { [key: string]: string | Tree };

// The merged texts: the shell's files plus every feature's own.
const [es, en] = (await Promise.all([loadTexts('es'), loadTexts('en')])) as Tree[];

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

describe('changeLanguage', () => {
  it('has the texts of a language not loaded yet before switching to it', async () => {
    i18n.removeResourceBundle('en', 'translation');
    const hadTexts: boolean[] = [];
    const onChange = (language: string) =>
      hadTexts.push(i18n.hasResourceBundle(language, 'translation'));
    i18n.on('languageChanged', onChange);
    await changeLanguage('en');
    i18n.off('languageChanged', onChange);

    expect(hadTexts).toEqual([true]);
    expect(i18n.t('languages.es')).toBe('Spanish');
    expect(document.documentElement.lang).toBe('en');
  });
});
