import { describe, expect, it } from 'vitest';
import {
  REPLY_WINDOW_MS,
  type ReplyWindow,
  type TicketListPage,
  type TicketView,
} from '@atendi/shared';
import { parseLocation, parseVcards, formatListTime, signedBody } from './ticket-format';
import { QueryClient } from '@tanstack/react-query';
import {
  applyTicketEvent,
  applyTicketEventToCache,
  messagesOf,
  reconcileTicketPage,
  ticketsKeys,
  ticketsOf,
  upsertMessages,
  windowAfter,
  type MessagesPage,
  type TicketListFilters,
  type TicketViewer,
} from './tickets.api';
import { makeMessage, makeTicket } from './tickets.fixtures';

const admin: TicketViewer = { userId: 1, queueIds: [], seesAll: true };
const agent: TicketViewer = { userId: 2, queueIds: [1], seesAll: false };
const openAll: TicketListFilters = { status: 'open', showAll: true, search: '' };
const pendingAll: TicketListFilters = { status: 'pending', showAll: true, search: '' };

const at = (minute: number) => new Date(2025, 2, 4, 9, minute).toISOString();

const listData = (...pages: { tickets: TicketView[]; hasMore?: boolean }[]) => ({
  pages: pages.map(({ tickets, hasMore = false }): TicketListPage => ({
    tickets,
    count: tickets.length,
    hasMore,
  })),
  pageParams: pages.map((_page, index) => index + 1),
});

const idsOf = (data: ReturnType<typeof listData> | undefined) => ticketsOf(data).map((t) => t.id);

describe('applyTicketEvent', () => {
  const first = makeTicket({ id: 1, updatedAt: at(30) });
  const second = makeTicket({ id: 2, updatedAt: at(20) });

  it('puts a ticket with news at the top and replaces a quiet update in place', () => {
    const data = listData({ tickets: [first, second] });
    const bumped = { ...second, updatedAt: at(40), lastMessage: 'Nuevo' };
    expect(
      idsOf(applyTicketEvent(data, { action: 'update', ticket: bumped }, openAll, admin)),
    ).toEqual([2, 1]);
    const read = { ...second, unreadMessages: 0 };
    const replaced = applyTicketEvent(data, { action: 'update', ticket: read }, openAll, admin);
    expect(idsOf(replaced)).toEqual([1, 2]);
    const fresh = makeTicket({ id: 3, updatedAt: at(50) });
    expect(
      idsOf(applyTicketEvent(data, { action: 'update', ticket: fresh }, openAll, admin)),
    ).toEqual([3, 1, 2]);
  });

  it('moves a ticket out of the lists whose status it left and into the one it now has', () => {
    const accepted = { ...makeTicket({ id: 5, status: 'open', updatedAt: at(45) }) };
    const pending = listData({ tickets: [{ ...accepted, status: 'pending', userId: null }] });
    const open = listData({ tickets: [first] });
    const event = { action: 'update', ticket: accepted } as const;
    expect(idsOf(applyTicketEvent(pending, event, pendingAll, admin))).toEqual([]);
    expect(idsOf(applyTicketEvent(open, event, openAll, admin))).toEqual([5, 1]);
  });

  it('shows an agent only their own tickets and the unassigned ones of their queues', () => {
    const data = listData({ tickets: [] });
    const filters = { ...openAll, showAll: false };
    const apply = (ticket: TicketView, list = filters) =>
      idsOf(applyTicketEvent(data, { action: 'update', ticket }, list, agent));
    expect(apply(makeTicket({ id: 1, userId: 2 }))).toEqual([1]);
    expect(apply(makeTicket({ id: 2, userId: 9 }))).toEqual([]);
    const waiting = { status: 'pending', userId: null, user: null } as const;
    const pendingList = { ...filters, status: 'pending' } as const;
    expect(apply(makeTicket({ id: 3, ...waiting, queueId: 1 }), pendingList)).toEqual([3]);
    expect(apply(makeTicket({ id: 4, ...waiting, queueId: 7 }), pendingList)).toEqual([]);
    expect(
      apply(makeTicket({ id: 5, ...waiting, queueId: null, queue: null }), pendingList),
    ).toEqual([5]);
    // Admins with show-all off see the same slice; the switch on shows everything.
    expect(
      idsOf(
        applyTicketEvent(
          data,
          { action: 'update', ticket: makeTicket({ id: 6, userId: 9 }) },
          filters,
          admin,
        ),
      ),
    ).toEqual([]);
  });

  it('adds to a search list only what shows the searched text, and keeps what it found', () => {
    const search = { status: null, showAll: true, search: 'maría' };
    const found = makeTicket({ id: 1 });
    const data = listData({ tickets: [found] });
    const other = makeTicket({ id: 2, updatedAt: at(59) });
    other.contact = { ...other.contact, name: 'Pedro' };
    other.lastMessage = 'nada';
    expect(
      idsOf(applyTicketEvent(data, { action: 'update', ticket: other }, search, admin)),
    ).toEqual([1]);
    const renamed = { ...found, contact: { ...found.contact, name: 'Mery' } };
    expect(
      idsOf(applyTicketEvent(data, { action: 'update', ticket: renamed }, search, admin)),
    ).toEqual([1]);
  });

  it('leaves a ticket older than every loaded row to the pages not loaded yet', () => {
    const data = listData({ tickets: [first, second], hasMore: true });
    const old = makeTicket({ id: 9, updatedAt: at(1) });
    expect(
      idsOf(applyTicketEvent(data, { action: 'update', ticket: old }, openAll, admin)),
    ).toEqual([1, 2]);
    const done = listData({ tickets: [first, second] });
    expect(
      idsOf(applyTicketEvent(done, { action: 'update', ticket: old }, openAll, admin)),
    ).toEqual([1, 2, 9]);
  });

  it('removes a deleted ticket and clears the unread count on updateUnread', () => {
    const data = listData({ tickets: [first, { ...second, unreadMessages: 3 }] });
    expect(
      idsOf(applyTicketEvent(data, { action: 'delete', ticketId: 1 }, openAll, admin)),
    ).toEqual([2]);
    const read = applyTicketEvent(data, { action: 'updateUnread', ticketId: 2 }, openAll, admin);
    expect(ticketsOf(read)[1].unreadMessages).toBe(0);
  });
});

describe('ticket events arriving out of order', () => {
  const pendingMine: TicketListFilters = { status: 'pending', showAll: false, search: '' };
  const waiting = (version: number, queueId: number | null) =>
    makeTicket({
      id: 5,
      status: 'pending',
      userId: null,
      user: null,
      queueId,
      queue: queueId ? { id: queueId, name: 'Pedidos', color: '#000' } : null,
      version,
    });
  const setup = () => {
    const client = new QueryClient();
    client.setQueryData(ticketsKeys.list(pendingMine), listData({ tickets: [waiting(1, null)] }));
    const listed = () => idsOf(client.getQueryData(ticketsKeys.list(pendingMine)));
    return { client, listed };
  };

  it('keeps a ticket that moved to a queue not of this agent away when an older state arrives late', () => {
    const { client, listed } = setup();
    // The queue bot moved it to queue 3 (version 2); an ack's emission loaded it just before.
    applyTicketEventToCache(client, { action: 'delete', ticketId: 5, version: 2 }, agent);
    applyTicketEventToCache(client, { action: 'update', ticket: waiting(2, 3) }, agent);
    expect(listed()).toEqual([]);
    applyTicketEventToCache(client, { action: 'update', ticket: waiting(1, null) }, agent);
    expect(listed()).toEqual([]);
    // A newer state brings it back.
    applyTicketEventToCache(client, { action: 'update', ticket: waiting(3, null) }, agent);
    expect(listed()).toEqual([5]);
  });

  it('corrects a page the API answered before the newest event', () => {
    const { client } = setup();
    applyTicketEventToCache(client, { action: 'delete', ticketId: 5, version: 2 }, agent);
    const stale = {
      tickets: [waiting(1, null), makeTicket({ id: 6, status: 'pending', userId: null })],
      count: 2,
      hasMore: false,
    };
    expect(reconcileTicketPage(client, stale, pendingMine, agent).tickets.map((t) => t.id)).toEqual(
      [6],
    );
    applyTicketEventToCache(client, { action: 'update', ticket: waiting(3, null) }, agent);
    const [again] = reconcileTicketPage(client, stale, pendingMine, agent).tickets;
    expect(again).toMatchObject({ id: 5, version: 3 });
    // What a page shows is remembered: an event older than it changes nothing.
    const fresh = { tickets: [waiting(7, null)], count: 1, hasMore: false };
    client.setQueryData(
      ticketsKeys.list(pendingMine),
      listData(reconcileTicketPage(client, fresh, pendingMine, agent)),
    );
    applyTicketEventToCache(client, { action: 'update', ticket: waiting(4, 3) }, agent);
    expect(idsOf(client.getQueryData(ticketsKeys.list(pendingMine)))).toEqual([5]);
  });

  it('drops a ticket deleted for good whatever arrives after', () => {
    const { client, listed } = setup();
    applyTicketEventToCache(client, { action: 'delete', ticketId: 5 }, agent);
    applyTicketEventToCache(client, { action: 'update', ticket: waiting(9, null) }, agent);
    expect(listed()).toEqual([]);
  });
});

describe('message cache', () => {
  const ticket = makeTicket();
  const pageOf = (
    messages: ReturnType<typeof makeMessage>[],
    hasMore = false,
    replyWindow: ReplyWindow | null = null,
  ): MessagesPage => ({
    messages,
    ticket,
    count: messages.length,
    hasMore,
    replyWindow,
  });

  it('appends a new message to the newest page and replaces a known one wherever it is', () => {
    const older = makeMessage({ id: 1, createdAt: at(1) });
    const newer = makeMessage({ id: 2, createdAt: at(2) });
    const data = { pages: [pageOf([newer]), pageOf([older, newer])], pageParams: [1, 2] };
    const arrived = makeMessage({ id: 3, createdAt: at(3), fromMe: true });
    const read = { ...newer, ack: 4 };
    const next = upsertMessages(data, [arrived, read]);
    expect(messagesOf(next).map((m) => [m.id, m.ack])).toEqual([
      [1, 0],
      [2, 4],
      [3, 0],
    ]);
    expect(next?.pages[1].messages[1].ack).toBe(4);
    // The same message again (the POST answer, then its live event) stays one message.
    expect(messagesOf(upsertMessages(next, [arrived]))).toHaveLength(3);
  });

  it('keeps the newer version when an older event of a message arrives after it', () => {
    const created = makeMessage({ id: 5, fromMe: true, ack: 0, updatedAt: at(1) });
    const sent = { ...created, ack: 2, updatedAt: at(2) };
    const data = { pages: [pageOf([sent])], pageParams: [1] };
    // The create event, sent before the update but delivered after it.
    expect(messagesOf(upsertMessages(data, [created]))[0]?.ack).toBe(2);
    expect(
      messagesOf(upsertMessages({ pages: [pageOf([created])], pageParams: [1] }, [sent]))[0]?.ack,
    ).toBe(2);
  });

  it("opens a Cloud API ticket's window when the contact writes, never moving it back", () => {
    const now = new Date();
    const minutesAgo = (minutes: number) =>
      new Date(now.getTime() - minutes * 60_000).toISOString();
    const closed: ReplyWindow = { open: false, closesAt: minutesAgo(60) };
    const data = { pages: [pageOf([], false, closed)], pageParams: [1] };

    // The agent's own messages open nothing.
    const mine = makeMessage({ id: 1, fromMe: true, createdAt: minutesAgo(1) });
    expect(upsertMessages(data, [mine])?.pages[0].replyWindow).toBe(closed);

    const inbound = makeMessage({ id: 2, fromMe: false, createdAt: minutesAgo(2) });
    const opened = upsertMessages(data, [inbound])?.pages[0].replyWindow;
    expect(opened).toEqual({
      open: true,
      closesAt: new Date(Date.parse(inbound.createdAt) + REPLY_WINDOW_MS).toISOString(),
    });
    // An older message of the contact (an edit, a late event) leaves the newer window.
    const current = { open: true, closesAt: opened!.closesAt };
    expect(windowAfter(current, [{ ...inbound, createdAt: minutesAgo(30) }], now)).toBe(current);
    // The contact's first message ever opens it too.
    expect(windowAfter({ open: false, closesAt: null }, [inbound], now)?.open).toBe(true);
    // Tickets of other connections have no window.
    expect(
      upsertMessages({ pages: [pageOf([])], pageParams: [1] }, [inbound])?.pages[0].replyWindow,
    ).toBeNull();
  });
});

describe('ticket formatting', () => {
  it('shows the time for today and the date otherwise', () => {
    const now = new Date(2025, 2, 4, 18, 0);
    expect(formatListTime(new Date(2025, 2, 4, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatListTime(new Date(2025, 2, 3, 9, 5).toISOString(), now)).toBe('03/03/2025');
  });

  it('signs a message with the sender name in bold', () => {
    expect(signedBody('Ana', 'Hola')).toBe('*Ana:*\nHola');
  });

  it('reads locations and vCards', () => {
    expect(parseLocation('19.43,-99.13\nZócalo')).toEqual({
      mapUrl: 'https://maps.google.com/maps?q=19.43,-99.13',
      details: ['Zócalo'],
    });
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Luis Pérez\nTEL;type=CELL:+52 55 1234\nEND:VCARD';
    expect(parseVcards(vcard)).toEqual([{ name: 'Luis Pérez', numbers: ['+52 55 1234'] }]);
  });
});
