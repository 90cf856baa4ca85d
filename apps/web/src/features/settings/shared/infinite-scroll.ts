import type { UIEvent } from 'react';

// SPEC §9: the next page loads once the list is scrolled within 100 px of its bottom.
const NEAR_BOTTOM_PX = 100;

export const isNearBottom = (element: HTMLElement) =>
  element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;

export const loadMoreOnScroll =
  (query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }) =>
  (event: UIEvent<HTMLElement>) => {
    if (query.hasNextPage && !query.isFetchingNextPage && isNearBottom(event.currentTarget)) {
      void query.fetchNextPage();
    }
  };
