import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../lib/use-debounced-value';
import { advanceClock, setupUserOnFakeClock } from '../test/clock';
import { TestProviders } from '../test/test-providers';
import { request } from '../api/http-client';
import { callsOf, jsonResponse, stubApi } from '../test/fixtures';
import { usePagedList, type PagedSource } from '../lib/use-paged-list';
import { actionsColumn, PagedTable, RowAction, type WholeList } from './paged-table';

type Tag = { id: number; name: string };
type TagsPage = { tags: Tag[]; hasMore: boolean };

const tagsSource: PagedSource<'tags', TagsPage> = {
  queryKey: (search) => ['paged-table-test', search],
  rowsKey: 'tags',
  fetchPage: (searchParam, pageNumber) =>
    request<TagsPage>('GET', '/tags', { query: { searchParam, pageNumber } }),
};

const tagsOf = (count: number, from = 1) =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, name: `Tag ${from + index}` }));

const pageOf =
  (tags: Tag[], hasMore = false) =>
  () =>
    jsonResponse(200, { tags, hasMore });

const columns = [
  { header: 'Name', cell: (tag: Tag) => tag.name },
  actionsColumn('Actions', (tag: Tag) => (
    <RowAction title="Edit" label={`Edit ${tag.name}`} icon="✎" onClick={() => undefined} />
  )),
];

const TagsTable = () => (
  <PagedTable
    title="Tags"
    searchLabel="Search tags"
    list={usePagedList(tagsSource)}
    columns={columns}
    emptyText="No tags yet."
    noMatchesText="No tag matches."
    scrollTestId="tags-scroll"
  />
);

const renderTable = (table = <TagsTable />) => render(<TestProviders>{table}</TestProviders>);

const tagRequests = (fetchMock: ReturnType<typeof stubApi>) =>
  callsOf(fetchMock).filter((call) => call.startsWith('GET /tags?'));

describe('paged table', () => {
  it('shows the heading, the column headers and a row per item with its actions', async () => {
    stubApi({ 'GET /tags': pageOf(tagsOf(2)) });
    renderTable();

    const row = (await screen.findByText('Tag 2')).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Edit Tag 2' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Tags' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Tags' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Actions']);
  });

  it('shows each row as a card on a phone, its headers beside the values and its actions at hand', async () => {
    window.innerWidth = 390;
    stubApi({ 'GET /tags': pageOf(tagsOf(2)) });
    renderTable();

    const cards = within(await screen.findByRole('list', { name: 'Tags' })).getAllByRole(
      'listitem',
    );
    expect(cards).toHaveLength(2);
    expect(within(cards[1]!).getByText('Name')).toBeTruthy();
    expect(within(cards[1]!).getByText('Tag 2')).toBeTruthy();
    expect(within(cards[1]!).getByRole('button', { name: 'Edit Tag 2' })).toBeTruthy();
    // The actions are not a field of the card.
    expect(within(cards[1]!).queryByText('Actions')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('sends the search once typing settles, and says when nothing matches', async () => {
    const fetchMock = stubApi({
      'GET /tags': ({ url }) =>
        url.searchParams.get('searchParam') ? pageOf([])() : pageOf(tagsOf(3))(),
    });
    const user = setupUserOnFakeClock();
    renderTable();
    await screen.findByText('Tag 3');

    await user.type(screen.getByRole('searchbox', { name: 'Search tags' }), 'vip ');
    expect(tagRequests(fetchMock)).toEqual(['GET /tags?searchParam=&pageNumber=1']);
    await advanceClock(SEARCH_DEBOUNCE_MS);

    expect(await screen.findByText('No tag matches.')).toBeTruthy();
    expect(screen.queryByText('Tag 1')).toBeNull();
    // One request for the settled text, trimmed; none for "v", "vi" and "vip".
    expect(tagRequests(fetchMock)).toEqual([
      'GET /tags?searchParam=&pageNumber=1',
      'GET /tags?searchParam=vip&pageNumber=1',
    ]);
  });

  it('loads the next page once scrolled within 100 px of the bottom, showing each row once', async () => {
    const fetchMock = stubApi({
      'GET /tags': ({ url }) =>
        url.searchParams.get('pageNumber') === '2'
          ? // A row created meanwhile pushed Tag 20 onto the second page too.
            pageOf(tagsOf(2, 20))()
          : pageOf(tagsOf(20), true)(),
    });
    renderTable();
    await screen.findByText('Tag 20');

    const box = screen.getByTestId('tags-scroll');
    Object.defineProperty(box, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 400 });
    box.scrollTop = 499;
    fireEvent.scroll(box);
    expect(tagRequests(fetchMock)).toEqual(['GET /tags?searchParam=&pageNumber=1']);

    box.scrollTop = 500;
    fireEvent.scroll(box);
    expect(await screen.findByText('Tag 21')).toBeTruthy();
    expect(screen.getAllByText('Tag 20')).toHaveLength(1);
    expect(tagRequests(fetchMock)).toEqual([
      'GET /tags?searchParam=&pageNumber=1',
      'GET /tags?searchParam=&pageNumber=2',
    ]);

    // The last page said there is no more.
    fireEvent.scroll(box);
    expect(tagRequests(fetchMock)).toHaveLength(2);
  });

  it('shows a loading row while a page is on its way, then the empty text', async () => {
    let answer: (response: Response) => void = () => undefined;
    stubApi({ 'GET /tags': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderTable();

    expect(await screen.findByRole('progressbar', { name: 'Cargando…' })).toBeTruthy();
    expect(screen.queryByText('No tags yet.')).toBeNull();
    answer(pageOf([])());
    expect(await screen.findByText('No tags yet.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows a whole list without a search box, leaving out a column given as false', async () => {
    const list: WholeList<Tag> = { rows: [], isPending: false, isFetching: false };
    renderTable(
      <PagedTable title="Queues" list={list} columns={[columns[0]!, false]} emptyText="None." />,
    );

    expect(await screen.findByText('None.')).toBeTruthy();
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Name']);
  });
});
