import { useState } from 'react';
import { infiniteQueryOptions, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { uniqueRows } from './paged-cache';
import { useDebouncedValue } from './use-debounced-value';

// What a paged list route (GET /<list>?searchParam&pageNumber) answers: the rows under K.
export type ListPage<K extends string> = Record<K, { id: number }[]> & { hasMore: boolean };

// One searchable paged list of the API: where its pages are cached and how one is fetched.
export type PagedSource<K extends string, P extends ListPage<K>> = {
  queryKey: (search: string) => QueryKey;
  rowsKey: K;
  fetchPage: (search: string, pageNumber: number) => Promise<P>;
};

const pagedListQuery = <K extends string, P extends ListPage<K>>(
  source: PagedSource<K, P>,
  search: string,
) =>
  infiniteQueryOptions({
    queryKey: source.queryKey(search),
    queryFn: ({ pageParam }) => source.fetchPage(search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: P, pages: P[]) => (last.hasMore ? pages.length + 1 : undefined),
  });

export type PagedList<R> = {
  rows: R[];
  // The search box's text, and what was searched once typing settled.
  searchInput: string;
  setSearchInput: (text: string) => void;
  search: string;
  isPending: boolean;
  isFetching: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

// The search box's text, the search sent once typing settles (SPEC §9), and the rows of every page
// loaded so far.
export const usePagedList = <K extends string, P extends ListPage<K>>(
  source: PagedSource<K, P>,
): PagedList<P[K][number]> & { firstPage: P | undefined } => {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim());
  const query = useInfiniteQuery(pagedListQuery(source, search));
  return {
    rows: uniqueRows(query.data, source.rowsKey),
    firstPage: query.data?.pages[0],
    search,
    searchInput,
    setSearchInput,
    isPending: query.isPending,
    isFetching: query.isFetching,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
  };
};
