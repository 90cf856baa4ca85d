import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAMPAIGN_BUILTIN_VARIABLES, errorStatus } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { changeLanguage, i18n, loadTexts } from './i18n';

type Tree = { [key: string]: string | Tree };

// The merged texts: the shell's files plus every feature's own.
const [es, en] = (await Promise.all([loadTexts('es'), loadTexts('en')])) as Tree[];

// A translation key written as a literal: t('a.b') or i18nKey="a.b".
const KEY_LITERAL = /\bt\(\s*'([\w.]+)'|i18nKey="([\w.]+)"/g;

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [`${prefix}${key}`.replace(PLURAL_SUFFIX, '')]
      : keysOf(value, `${prefix}${key}.`),
  );

// The keys a JSON text names twice in one object (the parser keeps the last one, silently).
const repeatedKeys = (text: string) => {
  const repeated: string[] = [];
  // One frame per open object (its keys so far) or array (null).
  const frames: (Set<string> | null)[] = [];
  let lastString = '';
  for (const [token] of text.matchAll(/"(?:[^"\\]|\\.)*"|[{}[\]:]/g)) {
    if (token === '{') frames.push(new Set());
    else if (token === '[') frames.push(null);
    else if (token === '}' || token === ']') frames.pop();
    else if (token === ':') {
      const keys = frames.at(-1);
      if (keys?.has(lastString)) repeated.push(lastString);
      keys?.add(lastString);
    } else lastString = JSON.parse(token) as string;
  }
  return repeated;
};

describe('translations', () => {
  it('name each key once in its file', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const features = path.resolve(here, '../features');
    const files = [
      ...readdirSync(here).map((file) => path.join(here, file)),
      ...readdirSync(features, { recursive: true, encoding: 'utf8' }).map((file) =>
        path.join(features, file),
      ),
    ].filter((file) => file.endsWith('.json') && file.includes(`${path.sep}i18n${path.sep}`));
    expect(files.length).toBeGreaterThan(40);
    const repeated = files.flatMap((file) =>
      repeatedKeys(readFileSync(file, 'utf8')).map(
        (key) =>
          `${path.basename(path.dirname(path.dirname(file)))}/${path.basename(file)}: ${key}`,
      ),
    );
    expect(repeated).toEqual([]);
  });

  it('have the same keys in Spanish and English', () => {
    expect([...new Set(keysOf(en))].sort()).toEqual([...new Set(keysOf(es))].sort());
  });

  it('have no empty texts', () => {
    const values = (tree: Tree): string[] =>
      Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : values(value)));
    expect(values(es).filter((value) => !value.trim())).toEqual([]);
    expect(values(en).filter((value) => !value.trim())).toEqual([]);
  });

  // Every key the code names as a literal (`t('a.b')`, `i18nKey="a.b"`) has a text in both languages:
  // a missing one shows raw on screen as `a.b`.
  it('have a text for every key the code names', () => {
    // Read as text from disk (not imported: the source files are not the test's code).
    const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
    );
    const named = files.flatMap((file) =>
      [...readFileSync(path.join(src, file), 'utf8').matchAll(KEY_LITERAL)].map(
        ([, key, attribute]) => `${file}: ${key ?? attribute}`,
      ),
    );
    expect(named.length).toBeGreaterThan(1000);
    const known = (tree: Tree) => new Set(keysOf(tree));
    for (const [language, texts] of [
      ['es', known(es)],
      ['en', known(en)],
    ] as const) {
      const missing = named.filter((entry) => !texts.has(entry.split(': ')[1]!));
      expect(missing, language).toEqual([]);
    }
  });

  it('name every variable a campaign message can use', () => {
    for (const name of CAMPAIGN_BUILTIN_VARIABLES) {
      expect(es.campaignSettings).toHaveProperty(['variables', 'builtIns', name]);
      expect(en.campaignSettings).toHaveProperty(['variables', 'builtIns', name]);
    }
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
