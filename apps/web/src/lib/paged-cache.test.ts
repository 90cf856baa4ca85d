import { describe, expect, it } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { setLiveData, updatePagedLists, upsertIntoPages } from './paged-cache';

type Item = { id: number; name: string; checked: boolean | null };
type Page = { items: Item[]; hasMore: boolean };
type Data = InfiniteData<Page, number>;

const key = (search: string) => ['items', 'page', search] as const;

// A fetch that answers when the test says, with what the server had read when it was asked.
const deferred = () => {
  let resolve!: (page: Page) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<Page>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
};

const setUp = () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const fetches: ReturnType<typeof deferred>[] = [];
  const fetchList = () =>
    queryClient.fetchInfiniteQuery({
      queryKey: key(''),
      queryFn: () => {
        const next = deferred();
        fetches.push(next);
        return next.promise;
      },
      initialPageParam: 1,
      getNextPageParam: () => undefined,
      staleTime: 0,
    });
  const rows = () => queryClient.getQueryData<Data>(key(''))?.pages.flatMap((page) => page.items);
  const check = (item: Item) =>
    updatePagedLists<Data>(queryClient, ['items', 'page'], (data) =>
      upsertIntoPages(data, 'items', item, true),
    );
  return { queryClient, fetches, fetchList, rows, check };
};

const ana = { id: 1, name: 'Ana', checked: null };
const bruno = { id: 2, name: 'Bruno', checked: null };

describe('live changes to a paged list', () => {
  it('survive a fetch that read the rows before them', async () => {
    const { fetches, fetchList, rows, check } = setUp();
    const first = fetchList();
    fetches[0]!.resolve({ items: [ana, bruno], hasMore: false });
    await first;

    // Asked again (an import invalidated it); the server reads Ana checked, Bruno not yet; Bruno's
    // check is told while the answer is on its way.
    const again = fetchList();
    check({ ...bruno, checked: true });
    fetches[1]!.resolve({ items: [{ ...ana, checked: true }, bruno], hasMore: false });
    await again;
    expect(rows()).toEqual([
      { ...ana, checked: true },
      { ...bruno, checked: true },
    ]);

    // Told once: the next fetch's answer is the list as it then is.
    const third = fetchList();
    fetches[2]!.resolve({ items: [ana, bruno], hasMore: false });
    await third;
    expect(rows()).toEqual([ana, bruno]);
  });

  it('stay in the list when the fetch in flight fails', async () => {
    const { fetches, fetchList, rows, check } = setUp();
    const first = fetchList();
    fetches[0]!.resolve({ items: [ana, bruno], hasMore: false });
    await first;

    const again = fetchList();
    check({ ...ana, checked: false });
    fetches[1]!.reject(new Error('network down'));
    await expect(again).rejects.toThrow('network down');
    expect(rows()).toEqual([{ ...ana, checked: false }, bruno]);

    const third = fetchList();
    fetches[2]!.resolve({ items: [ana, bruno], hasMore: false });
    await third;
    expect(rows()).toEqual([ana, bruno]);
  });

  it('survive a fetch in flight on a list cached as a plain array too', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    type Connection = { id: number; status: string };
    const key = ['connections'];
    const answer = (rows: Connection[]) => {
      let resolve!: (rows: Connection[]) => void;
      const fetched = queryClient.fetchQuery({
        queryKey: key,
        queryFn: () => new Promise<Connection[]>((ok) => (resolve = ok)),
        staleTime: 0,
      });
      return { fetched, land: () => resolve(rows) };
    };
    const first = answer([{ id: 1, status: 'CONNECTED' }]);
    first.land();
    await first.fetched;

    // The page asks again; its answer was read before the node running the session died, and the
    // session's move is told while it travels.
    const again = answer([{ id: 1, status: 'CONNECTED' }]);
    setLiveData<Connection[]>(queryClient, key, (rows) =>
      rows?.map((row) => (row.id === 1 ? { ...row, status: 'OPENING' } : row)),
    );
    again.land();
    await again.fetched;
    expect(queryClient.getQueryData(key)).toEqual([{ id: 1, status: 'OPENING' }]);
  });
});
