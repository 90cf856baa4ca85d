import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAMPAIGN_BUILTIN_VARIABLES, errorStatus } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { languages } from '@atendi/shared';
import { changeLanguage, i18n, loadTexts } from './i18n';

type Tree = { [key: string]: string | Tree };

// The merged texts: the shell's files plus every feature's own.
const [es, en, pt] = (await Promise.all(languages.map(loadTexts))) as [Tree, Tree, Tree];
const texts = { es, en, 'pt-BR': pt } satisfies Record<(typeof languages)[number], Tree>;

// A translation key written as a literal: t('a.b') or i18nKey="a.b".
const KEY_LITERAL = /\bt\(\s*'([\w.]+)'|i18nKey="([\w.]+)"/g;

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [`${prefix}${key}`.replace(PLURAL_SUFFIX, '')]
      : keysOf(value, `${prefix}${key}.`),
  );

// Every text by its key, plural forms included ('a.b_one'), and the {{placeholders}} of one text.
const entriesOf = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : entriesOf(value, `${prefix}${key}.`),
  );
const placeholdersOf = (text: string) =>
  [...new Set([...text.matchAll(/{{\s*([\w.]+)\s*}}/g)].map(([, name]) => name))].sort();

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

  // A key one language lacks shows in it as the fallback's Spanish (or raw): parity both ways.
  it('have the same keys in Spanish, English and Portuguese', () => {
    const spanish = [...new Set(keysOf(es))].sort();
    expect([...new Set(keysOf(en))].sort()).toEqual(spanish);
    expect([...new Set(keysOf(pt))].sort()).toEqual(spanish);
  });

  // A translation that drops or renames {{name}} shows the literal braces, or leaves a fact out.
  it('name the same placeholders in every language', () => {
    // A plural form is compared with the same form in Spanish (a "_one" may name the one thing,
    // where "_other" counts them), or with the Spanish "_other" where Spanish has no such form; and
    // it may write the number in words ("Last day") instead of {{count}}.
    const spanish = new Map(entriesOf(es).map(([key, text]) => [key, placeholdersOf(text)]));
    const uncounted = (names: string[]) => names.filter((name) => name !== 'count').join();
    for (const tree of [en, pt]) {
      const differing = entriesOf(tree).filter(([key, text]) => {
        const expected =
          spanish.get(key) ?? spanish.get(key.replace(PLURAL_SUFFIX, '_other')) ?? [];
        return uncounted(placeholdersOf(text)) !== uncounted(expected);
      });
      expect(differing).toEqual([]);
    }
  });

  it('have no empty texts', () => {
    const values = (tree: Tree): string[] =>
      Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : values(value)));
    for (const [language, tree] of Object.entries(texts))
      expect(
        values(tree).filter((value) => !value.trim()),
        language,
      ).toEqual([]);
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
    for (const [language, tree] of Object.entries(texts)) {
      const keys = known(tree);
      const missing = named.filter((entry) => !keys.has(entry.split(': ')[1]!));
      expect(missing, language).toEqual([]);
    }
  });

  it('name every variable a campaign message can use', () => {
    for (const name of CAMPAIGN_BUILTIN_VARIABLES)
      for (const tree of Object.values(texts))
        expect(tree.campaignSettings).toHaveProperty(['variables', 'builtIns', name]);
  });

  it('translate every error code the API can answer', () => {
    for (const code of Object.keys(errorStatus))
      for (const tree of Object.values(texts)) expect(tree.errors).toHaveProperty(code);
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

  // Brazilian Portuguese is chosen like the others; i18next reads its plurals with pt-BR's rules,
  // which have a "many" form for a million and more: that form is Portuguese too, not the fallback.
  it('switches to Brazilian Portuguese, plurals included', async () => {
    await changeLanguage('pt-BR');

    expect(i18n.resolvedLanguage).toBe('pt-BR');
    expect(document.documentElement.lang).toBe('pt-BR');
    expect(i18n.t('languages.pt-BR')).toBe('Português (Brasil)');
    expect(i18n.t('tickets.unread', { count: 1 })).toBe('1 mensagem não lida');
    expect(i18n.t('tickets.unread', { count: 3 })).toBe('3 mensagens não lidas');
    expect(i18n.t('tickets.unread', { count: 1_000_000 })).toBe('1000000 mensagens não lidas');
    await changeLanguage('es');
  });
});
