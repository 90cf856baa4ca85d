import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';

// SPEC §9: lists load the next page once scrolled within 100 px of the bottom.
const LOAD_MORE_THRESHOLD_PX = 100;

type PagedList = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  // Changes whenever a page arrives, so a list too short to scroll still asks for more.
  loadedCount: number;
};

const isNearBottom = (element: HTMLElement) =>
  element.scrollHeight - element.scrollTop - element.clientHeight <= LOAD_MORE_THRESHOLD_PX;

// A ref callback and an onScroll handler for the scrolling element of a paged list, and that element.
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

  const loadMoreIfNear = useCallback((target: HTMLElement) => {
    const current = state.current;
    if (current.hasNextPage && !current.isFetchingNextPage && isNearBottom(target)) {
      void current.fetchNextPage();
    }
  }, []);

  // A page that does not fill the box cannot be scrolled; a box not laid out (hidden) has no height.
  useEffect(() => {
    if (element && element.clientHeight > 0) loadMoreIfNear(element);
  }, [element, loadedCount, hasNextPage, isFetchingNextPage, loadMoreIfNear]);

  return {
    ref: setElement,
    element,
    onScroll: (event: UIEvent<HTMLElement>) => loadMoreIfNear(event.currentTarget),
  };
};
