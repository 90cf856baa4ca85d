import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, storageKeys, writeStorage } from '../lib/storage';
import en from './en.json';
import es from './es.json';

export const languages = ['es', 'en'] as const;
export type Language = (typeof languages)[number];

const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

// SPEC §1: Spanish unless the browser remembered another choice.
export const storedLanguage = (): Language => {
  const stored = readStorage(storageKeys.language);
  return isLanguage(stored) ? stored : 'es';
};

export const i18n = i18next.createInstance();

type Messages = { [key: string]: string | Messages };

const mergeInto = (target: Messages, source: Messages) => {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') mergeInto(existing, value);
    else target[key] = value;
  }
  return target;
};

// Each feature keeps its texts beside its code (features/<name>/i18n/es.json, en.json, or for a part
// of a feature <part>.es.json, <part>.en.json), so features can be built side by side without editing
// one shared file.
const featureFiles = import.meta.glob<Messages>('../features/*/i18n/*.json', {
  eager: true,
  import: 'default',
});
const messagesFor = (language: Language, base: Messages) =>
  Object.entries(featureFiles)
    .filter(([file]) => file.endsWith(`/${language}.json`) || file.endsWith(`.${language}.json`))
    .reduce((all, [, messages]) => mergeInto(all, messages), structuredClone(base));

export const translations = { es: messagesFor('es', es), en: messagesFor('en', en) };

void i18n.use(initReactI18next).init({
  resources: { es: { translation: translations.es }, en: { translation: translations.en } },
  lng: storedLanguage(),
  fallbackLng: 'es',
  supportedLngs: [...languages],
  interpolation: { escapeValue: false },
  initAsync: false,
});

const syncDocumentLanguage = (language: string) => {
  document.documentElement.lang = language;
};
syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);

export const changeLanguage = async (language: Language) => {
  writeStorage(storageKeys.language, language);
  await i18n.changeLanguage(language);
};

export const currentLanguage = (): Language =>
  isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
