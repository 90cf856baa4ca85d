import { useSyncExternalStore } from 'react';

// The current time, shared by every component that shows a countdown and refreshed every half
// minute: one timer for the page, however many rows count down.
const TICK_MS = 30_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};

export const useNow = () =>
  useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
