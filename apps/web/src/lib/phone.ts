import { useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

// Phone numbers on screen: stored as WhatsApp knows them ('525512345678'), shown as people write them
// ('+52 55 1234 5678'), read with the company's country where one is typed (@atendi/shared/phone).
// That module carries libphonenumber-js and its metadata (~29 kB gzipped), so it is fetched the first
// time a number is shown rather than with the inbox's first load (bench/web-bundle.ts); until it
// arrives a number shows as '+' and its digits.

type PhoneModule = typeof import('@atendi/shared/phone');

let phone: PhoneModule | undefined;
let loading: Promise<PhoneModule> | undefined;
const listeners = new Set<() => void>();

const loadPhone = () => {
  loading ??= import('@atendi/shared/phone').then(
    (module) => {
      phone = module;
      listeners.forEach((listener) => listener());
      return module;
    },
    (error: unknown) => {
      // A failed fetch (offline, a new release) is tried again by the next screen that asks.
      loading = undefined;
      throw error;
    },
  );
  return loading;
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  if (!phone) loadPhone().catch(() => undefined);
  return () => {
    listeners.delete(listener);
  };
};

// The phone module once it is here (undefined until then; asking for it fetches it).
export const usePhone = () => useSyncExternalStore(subscribe, () => phone);

// A stored number as people read it; a group's id or a LID as it is.
export const useFormatPhone = () => {
  const loaded = usePhone();
  return useCallback(
    (number: string, isGroup = false) => {
      if (isGroup || !/^\d+$/.test(number)) return number;
      return loaded ? loaded.formatPhone(number) : `+${number}`;
    },
    [loaded],
  );
};

const regionNames = new Map<string, Intl.DisplayNames>();

// A country's name in the app's language ('MX' → 'México'), or its code where Intl knows none.
export const countryName = (code: string, language: string) => {
  let names = regionNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region' });
    regionNames.set(language, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
};

// What a number field says under it: how a number without its country code is read.
export const usePhoneHint = (country: string | undefined) => {
  const { t, i18n } = useTranslation();
  return country
    ? t('phone.localHint', { country: countryName(country, i18n.language) })
    : t('phone.internationalHint');
};
