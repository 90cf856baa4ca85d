import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TicketView } from '@atendi/shared';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { ROW_HEIGHT_PX, VIEWPORT_HEIGHT_PX } from '../../test/virtual-layout';
import { listOf, makeContact, makeMessage, makeTicket, messagesOf } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

// The inbox's lists render the rows in view and a few either side, not every row loaded: with
// test/virtual-layout's geometry (a 600 px box, 72 px rows) about 9 in view, and 6 either side.
const MOST_ROWS_RENDERED = Math.ceil(VIEWPORT_HEIGHT_PX / ROW_HEIGHT_PX) + 2 * 6 + 1;

const ticketNamed = (id: number) =>
  makeTicket({ id, contact: makeContact({ id, name: `Cliente ${id}` }) });

const manyTickets = (count: number, firstId = 1) =>
  Array.from({ length: count }, (_, index) => ticketNamed(firstId + index));

const scrollToBottom = (box: HTMLElement) => {
  box.scrollTop = box.scrollHeight - box.clientHeight;
  fireEvent.scroll(box);
};

// The open list's pages by number; every page asked for is kept.
const stubOpenList = (pages: Record<number, { tickets: TicketView[]; hasMore: boolean }>) => {
  const asked: number[] = [];
  stubApi({
    'GET /tickets': ({ url }) => {
      if (url.searchParams.get('status') !== 'open') return listOf([]);
      const page = Number(url.searchParams.get('pageNumber'));
      asked.push(page);
      return listOf(pages[page]?.tickets ?? [], pages[page]?.hasMore);
    },
  });
  return asked;
};

describe('virtualised ticket list', () => {
  it('renders only the rows in view of a thousand loaded tickets, and loads the next page at the end', async () => {
    const asked = stubOpenList({
      1: { tickets: manyTickets(1000), hasMore: true },
      2: { tickets: manyTickets(40, 1001), hasMore: false },
    });
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    await screen.findByText('Cliente 1');
    const list = screen.getByRole('list', { name: 'Atendiendo' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeLessThanOrEqual(MOST_ROWS_RENDERED);
    // Assistive technology still learns each row's place in the whole list, still growing.
    expect(rows[0].getAttribute('aria-posinset')).toBe('1');
    expect(rows[0].getAttribute('aria-setsize')).toBe('-1');
    expect(within(list).queryByText('Cliente 1000')).toBeNull();
    expect(asked).toEqual([1]);

    scrollToBottom(screen.getByTestId('tickets-scroll'));
    expect(await within(list).findByText('Cliente 1000')).toBeTruthy();
    expect(within(list).queryByText('Cliente 1')).toBeNull();
    expect(within(list).getAllByRole('listitem').length).toBeLessThanOrEqual(MOST_ROWS_RENDERED);
    await waitFor(() => expect(asked).toEqual([1, 2]));

    scrollToBottom(screen.getByTestId('tickets-scroll'));
    const last = await within(list).findByText('Cliente 1040');
    expect(last.closest('li')?.getAttribute('aria-setsize')).toBe('1040');
  });

  it('keeps the row holding the focus while it scrolls out of view', async () => {
    stubOpenList({ 1: { tickets: manyTickets(200), hasMore: false } });
    renderPage(<TicketsPage />, '/tickets', makeAuth(), { route: '/tickets/:ticketId?' });

    const first = (await screen.findByText('Cliente 1')).closest('li')!;
    const resolve = within(first).getByRole('button', { name: 'Cerrar ticket' });
    act(() => resolve.focus());

    scrollToBottom(screen.getByTestId('tickets-scroll'));
    expect(await screen.findByText('Cliente 200')).toBeTruthy();
    expect(document.activeElement).toBe(resolve);
  });
});

describe('virtualised chat', () => {
  it('renders only the messages in view of a long conversation, opening at the newest', async () => {
    const ticket = makeTicket({ id: 7 });
    const messages = Array.from({ length: 1000 }, (_, index) =>
      makeMessage({ id: index + 1, ticketId: 7, body: `Mensaje ${index + 1}` }),
    );
    stubApi({
      'GET /tickets': () => listOf([]),
      [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
      'GET /messages/7': () => messagesOf(ticket, messages),
    });
    renderPage(<TicketsPage />, `/tickets/${ticket.uuid}`, makeAuth(), {
      route: '/tickets/:ticketId?',
    });

    // Reaching the end takes a few rounds of rows rendered, measured and scrolled to.
    expect(await screen.findByText('Mensaje 1000')).toBeTruthy();
    const box = screen.getByTestId('messages-scroll');
    expect(within(box).queryByText('Mensaje 1')).toBeNull();
    expect(within(box).getAllByTestId(/^message-\d+$/).length).toBeLessThanOrEqual(
      MOST_ROWS_RENDERED,
    );
  });
});
