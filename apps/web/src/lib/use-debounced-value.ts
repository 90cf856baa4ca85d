import { useEffect, useState } from 'react';

// SPEC §9: searches wait 500 ms after the last keystroke.
export const SEARCH_DEBOUNCE_MS = 500;

export const useDebouncedValue = <T>(value: T, delayMs = SEARCH_DEBOUNCE_MS): T => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
};
