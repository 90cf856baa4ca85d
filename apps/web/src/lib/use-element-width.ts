import { useCallback, useState } from 'react';

// The width an element is given, kept up to date as the window or its neighbours change it: for a
// component whose layout depends on its own room (the chat beside the list and the contact drawer),
// not on the window's. Undefined until measured, and where the browser cannot measure (tests).
export const useElementWidth = <T extends HTMLElement>() => {
  const [width, setWidth] = useState<number | undefined>(undefined);
  // A callback ref (React 19 runs the cleanup it returns when the element goes).
  const ref = useCallback((element: T | null) => {
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
};
