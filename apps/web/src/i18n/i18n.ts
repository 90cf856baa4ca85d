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

void i18n.use(initReactI18next).init({
  resources: { es: { translation: es }, en: { translation: en } },
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
