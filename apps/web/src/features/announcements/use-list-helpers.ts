import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';

// SPEC §9: searches wait 500 ms; lists load the next page within 100 px of the bottom.
export const SEARCH_DEBOUNCE_MS = 500;
export const LOAD_MORE_THRESHOLD_PX = 100;

export const useDebouncedValue = <T>(value: T, delayMs = SEARCH_DEBOUNCE_MS) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
};

type PagedList = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  // Changes whenever a page arrives, so a list too short to scroll still asks for more.
  loadedCount: number;
};

const isNearBottom = (element: HTMLElement) =>
  element.scrollHeight - element.scrollTop - element.clientHeight <= LOAD_MORE_THRESHOLD_PX;

// Returns a ref callback and an onScroll handler for the scrolling element of a paged list.
export const useInfiniteScroll = ({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  loadedCount,
}: PagedList) => {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const state = useRef({ hasNextPage, isFetchingNextPage, fetchNextPage });
  useEffect(() => {
    state.current = { hasNextPage, isFetchingNextPage, fetchNextPage };
  });

  const loadMoreIfNeeded = useCallback((target: HTMLElement | null) => {
    const current = state.current;
    if (!target || !current.hasNextPage || current.isFetchingNextPage) return;
    if (isNearBottom(target)) void current.fetchNextPage();
  }, []);

  useEffect(() => {
    loadMoreIfNeeded(element);
  }, [element, loadedCount, hasNextPage, isFetchingNextPage, loadMoreIfNeeded]);

  return {
    ref: setElement,
    onScroll: (event: UIEvent<HTMLElement>) => loadMoreIfNeeded(event.currentTarget),
  };
};
