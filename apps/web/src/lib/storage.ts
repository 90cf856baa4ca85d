export const storageKeys = {
  token: 'token',
  theme: 'theme',
  language: 'language',
  volume: 'volume',
  campaignFlag: 'cshow',
  todos: 'todos',
  // Company ids whose getting-started card was closed or finished, comma-separated.
  gettingStartedClosed: 'gettingStartedClosed',
  // The contact each simulator connection's phone last wrote as: { [connectionId]: { from, name } }.
  simulatorContacts: 'simulatorContacts',
} as const;

type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

// Storage can throw (private mode, disabled cookies); the app must keep working without it.
export const readStorage = (key: StorageKey): string | null => {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
};

export const writeStorage = (key: StorageKey, value: string) => {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Ignored: the value simply is not remembered.
  }
};

export const removeStorage = (key: StorageKey) => {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Ignored, as above.
  }
};

// SPEC §2: campaign routes exist only while this local flag is present (any value).
export const hasCampaignFlag = () => readStorage(storageKeys.campaignFlag) !== null;
