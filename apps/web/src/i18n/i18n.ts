import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageOr, languages, type Language } from '@atendi/shared';
import { readStorage, storageKeys, writeStorage } from '../lib/storage';

// SPEC §1: Spanish unless the browser remembered another choice.
const storedLanguage = (): Language => {
  const stored = readStorage(storageKeys.language);
  return languageOr(stored);
};

export const i18n = i18next.createInstance();
i18n.use(initReactI18next);

type Messages = { [key: string]: string | Messages };

const mergeInto = (target: Messages, source: Messages) => {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') mergeInto(existing, value);
    else target[key] = value;
  }
  return target;
};

// The shell's texts (./es.json, ./en.json, ./pt-BR.json) and each feature's beside its code
// (features/<name>/i18n/es.json, en.json, pt-BR.json, or for a part of a feature <part>.es.json…),
// so features can be built side by side without editing one shared file. Not eager: a session needs
// one language, so each language is a chunk of its own (vite.config.ts) fetched when first needed.
const shellFiles = import.meta.glob<Messages>('./*.json', { import: 'default' });
const featureFiles = import.meta.glob<Messages>('../features/*/i18n/*.json', {
  import: 'default',
});

// The whole language tag ends the name ('pt-BR.json', 'health.pt-BR.json'): no file of one language
// ends like another's.
const isFileOf = (file: string, language: Language) =>
  file.endsWith(`/${language}.json`) || file.endsWith(`.${language}.json`);

// One language's texts merged: the shell's first, then every feature's.
export const loadTexts = async (language: Language): Promise<Messages> => {
  const loadShell = shellFiles[`./${language}.json`];
  const loadFeatures = Object.entries(featureFiles)
    .filter(([file]) => isFileOf(file, language))
    .map(([, load]) => load());
  const [shell, ...features] = await Promise.all([loadShell(), ...loadFeatures]);
  return features.reduce(mergeInto, structuredClone(shell));
};

// The first request for a language's texts, shared by later ones; forgotten if it failed, so that
// choosing the language again tries again.
const requests = new Map<Language, Promise<Messages>>();

const textsOf = (language: Language) => {
  const request =
    requests.get(language) ??
    loadTexts(language).catch((error: unknown) => {
      requests.delete(language);
      throw error;
    });
  requests.set(language, request);
  return request;
};

const syncDocumentLanguage = (language: string) => {
  document.documentElement.lang = language;
};
i18n.on('languageChanged', syncDocumentLanguage);

// Resolves once the texts the app starts with are here: main.tsx renders after it, so no text shows
// as its key. The app needs only the stored language's; tests ask for all.
export const initI18n = async (preloaded: readonly Language[] = [storedLanguage()]) => {
  const texts = await Promise.all(preloaded.map(textsOf));
  await i18n.init({
    resources: Object.fromEntries(
      preloaded.map((language, index) => [language, { translation: texts[index] }]),
    ),
    lng: storedLanguage(),
    fallbackLng: 'es',
    supportedLngs: [...languages],
    interpolation: { escapeValue: false },
    initAsync: false,
  });
};

// The language's texts are fetched before switching, so that no text shows as its key meanwhile.
export const changeLanguage = async (language: Language) => {
  if (!i18n.hasResourceBundle(language, 'translation')) {
    try {
      i18n.addResourceBundle(language, 'translation', await textsOf(language));
    } catch {
      // Offline, or a new deployment replaced the chunk: the language stays as it was.
      return;
    }
  }
  writeStorage(storageKeys.language, language);
  await i18n.changeLanguage(language);
};
