import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';

// Live events applied to a cached infinite list (SPEC §4 Live updates: create and update insert or
// replace, delete removes). K is the field of each page that holds the rows ('contacts', 'tags', …).
// setLiveData writes a change into any cached query so that a fetch in flight does not undo it.

type Row = { id: number };
type Pages<K extends string, P extends Record<K, Row[]>> = InfiniteData<P, unknown>;
type RowOf<K extends string, P extends Record<K, Row[]>> = P[K][number];

export const removeFromPages = <
  K extends string,
  P extends Record<K, Row[]>,
  D extends Pages<K, P>,
>(
  data: D | undefined,
  key: K,
  id: number,
): D | undefined => {
  if (!data) return data;
  const isListed = data.pages.some((page) => page[key].some((row) => row.id === id));
  if (!isListed) return data;
  const pages = data.pages.map((page) => ({
    ...page,
    [key]: page[key].filter((row) => row.id !== id),
  }));
  return { ...data, pages: withCount(pages, -1) };
};

// The list's total (a page's `count`, shown in titles like "Contactos (12)") follows a row inserted
// or removed live; each page repeats it, so every page's changes.
const withCount = <P>(pages: P[], change: number): P[] =>
  pages.map((page) => {
    const count = (page as { count?: unknown }).count;
    return typeof count === 'number' ? { ...page, count: Math.max(0, count + change) } : page;
  });

// Replaces the row where it is listed; otherwise puts it first when it belongs in this list (the
// list's search matches it).
export const upsertIntoPages = <
  K extends string,
  P extends Record<K, Row[]>,
  D extends Pages<K, P>,
>(
  data: D | undefined,
  key: K,
  row: RowOf<K, P>,
  belongs: boolean,
): D | undefined => {
  if (!data || data.pages.length === 0) return data;
  const isListed = data.pages.some((page) => page[key].some((item) => item.id === row.id));
  if (isListed)
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        [key]: page[key].map((item) => (item.id === row.id ? { ...item, ...row } : item)),
      })),
    };
  if (!belongs) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: withCount([{ ...first, [key]: [row, ...first[key]] }, ...rest], 1) };
};

// Pages are offsets: a live insert can push a row onto the next page, so each row shows once.
export const uniqueRows = <K extends string, P extends Record<K, Row[]>>(
  data: Pages<K, P> | undefined,
  key: K,
): RowOf<K, P>[] => {
  const byId = new Map<number, RowOf<K, P>>();
  data?.pages.forEach((page) => page[key].forEach((row) => byId.set(row.id, row)));
  return [...byId.values()];
};

// The listed row with this id, when a page holds it.
export const findInPages = <K extends string, P extends Record<K, Row[]>>(
  data: Pages<K, P> | undefined,
  key: K,
  id: number,
): RowOf<K, P> | undefined => {
  for (const page of data?.pages ?? []) {
    const row = page[key].find((item) => item.id === id);
    if (row) return row;
  }
  return undefined;
};

// A change that lands while a list is being fetched is applied again to what that fetch brings back:
// the fetch may have read the rows before the change (an import's invalidation racing the number
// checks that follow it), and its answer would otherwise put the old row back until a reload.
// Changes replace or remove whole rows, so applying one the fetch already saw changes nothing.
type Replay = (data: unknown) => unknown;
const replaysByClient = new WeakMap<QueryClient, Map<string, Replay[]>>();
const replaysOf = (queryClient: QueryClient) => {
  let replays = replaysByClient.get(queryClient);
  if (!replays) {
    const waiting = new Map<string, Replay[]>();
    replaysByClient.set(queryClient, waiting);
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'removed') waiting.delete(event.query.queryHash);
      if (event.type !== 'updated') return;
      const updates = waiting.get(event.query.queryHash);
      if (!updates) return;
      // A fetch that failed left the data the changes were applied to; one cancelled and started
      // again keeps them waiting for its successor.
      if (event.action.type === 'error') waiting.delete(event.query.queryHash);
      if (event.action.type !== 'success' || event.action.manual) return;
      waiting.delete(event.query.queryHash);
      queryClient.setQueryData(event.query.queryKey, (data: unknown) =>
        updates.reduce((current, update) => update(current), data),
      );
    });
    replays = waiting;
  }
  return replays;
};

// Writes a live change into one cached query (setQueryData), applied again to the answer of a fetch
// of it in flight (see replaysOf).
export const setLiveData = <D>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  update: (data: D | undefined) => D | undefined,
) => {
  queryClient.setQueryData<D>(queryKey, update);
  const query = queryClient.getQueryCache().find({ queryKey, exact: true });
  if (query?.state.fetchStatus !== 'fetching') return;
  const replays = replaysOf(queryClient);
  replays.set(query.queryHash, [...(replays.get(query.queryHash) ?? []), update as Replay]);
};

// Applies a change to every cached search of one list: each list's key is listsKey + its search.
export const updatePagedLists = <D>(
  queryClient: QueryClient,
  listsKey: QueryKey,
  update: (data: D | undefined, search: string) => D | undefined,
) => {
  queryClient
    .getQueryCache()
    .findAll({ queryKey: listsKey })
    .forEach(({ queryKey }) => {
      const search = String(queryKey[listsKey.length] ?? '');
      setLiveData<D>(queryClient, queryKey, (data) => update(data, search));
    });
};
