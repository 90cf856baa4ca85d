import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import { i18n } from '../../i18n/i18n';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { setupUser } from '../../test/user-event';
import { MARK_READ_THROTTLE_MS } from './message-list';
import {
  listOf,
  makeContact,
  makeMessage,
  makeTicket,
  messagesOf,
  receiveAppMessage,
  receiveTicket,
  todayAt,
} from './tickets.fixtures';

const withContact = (id: number, name: string, overrides: Partial<TicketView> = {}) =>
  makeTicket({ id, contact: makeContact({ id, name }), ...overrides });

const open = withContact(7, 'María López');
const pedro = withContact(8, 'Pedro Ruiz', {
  status: 'pending',
  userId: null,
  user: null,
  unreadMessages: 1,
});

// A browser Notification stand-in that records what was shown.
const shown: { title: string; options: NotificationOptions; instance: FakeNotification }[] = [];
class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static requestPermission = vi.fn(async () => FakeNotification.permission);
  onclick: (() => void) | null = null;
  close = vi.fn();
  constructor(title: string, options: NotificationOptions = {}) {
    shown.push({ title, options, instance: this });
  }
}

// A WebAudio stand-in: each chime's loudest point.
const chimes: number[] = [];
class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  resume = vi.fn(async () => undefined);
  createGain() {
    const peaks: number[] = [];
    chimes.push(0);
    const index = chimes.length - 1;
    return {
      gain: {
        setValueAtTime: () => undefined,
        exponentialRampToValueAtTime: (value: number) => {
          peaks.push(value);
          chimes[index] = Math.max(...peaks);
        },
      },
      connect: () => undefined,
    };
  }
  createOscillator() {
    return {
      type: 'sine',
      frequency: { setValueAtTime: () => undefined },
      connect: () => undefined,
      start: () => undefined,
      stop: () => undefined,
    };
  }
}

beforeEach(() => {
  shown.length = 0;
  chimes.length = 0;
  FakeNotification.permission = 'granted';
  FakeNotification.requestPermission.mockClear();
  vi.stubGlobal('Notification', FakeNotification);
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.spyOn(document, 'hasFocus').mockReturnValue(true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('message notifications', () => {
  it('notifies and rings for another ticket’s message, not for the chat on screen or my own', async () => {
    window.localStorage.setItem('volume', '0.4');
    stubApi({
      'GET /tickets': () => listOf([]),
      [`GET /tickets/u/${open.uuid}`]: () => jsonResponse(200, open),
      'GET /messages/7': () => messagesOf(open, []),
      [`GET /tickets/u/${pedro.uuid}`]: () => jsonResponse(200, pedro),
      'GET /messages/8': () =>
        messagesOf(pedro, [makeMessage({ id: 21, ticketId: 8, body: 'Mensaje de Pedro' })]),
    });
    renderApp(`/tickets/${open.uuid}`, makeAuth());
    await screen.findByText('Resolver');

    await receiveAppMessage(makeMessage({ id: 20, ticketId: 7, body: 'En pantalla' }), open);
    await receiveAppMessage(makeMessage({ id: 22, ticketId: 8, body: 'Mío', fromMe: true }), pedro);
    expect(shown).toEqual([]);
    expect(chimes).toEqual([]);

    await receiveAppMessage(
      makeMessage({ id: 21, ticketId: 8, body: '*Mensaje* de Pedro' }),
      pedro,
    );
    expect(shown).toHaveLength(1);
    expect(shown[0].title).toBe('Pedro Ruiz');
    // Without WhatsApp's marks.
    expect(shown[0].options).toMatchObject({ body: 'Mensaje de Pedro', tag: '8' });
    // At the volume the user chose (0.25 of full scale at volume 1).
    expect(chimes).toEqual([0.1]);

    // The chat on screen still notifies when the window is elsewhere.
    vi.mocked(document.hasFocus).mockReturnValue(false);
    await receiveAppMessage(makeMessage({ id: 23, ticketId: 7, body: 'Fuera de foco' }), open);
    expect(shown.map((entry) => entry.options.body)).toEqual(['Mensaje de Pedro', 'Fuera de foco']);

    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    act(() => shown[0].instance.onclick?.());
    expect(focus).toHaveBeenCalled();
    expect(shown[0].instance.close).toHaveBeenCalled();
    expect(await screen.findByText('Mensaje de Pedro')).toBeTruthy();
  });

  it('asks for permission on the inbox, and stays silent at volume 0', async () => {
    FakeNotification.permission = 'default';
    window.localStorage.setItem('volume', '0');
    stubApi({ 'GET /tickets': () => listOf([]) });
    renderApp('/tickets', makeAuth());
    await screen.findByText('No está atendiendo ningún ticket.');
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);

    await receiveAppMessage(makeMessage({ id: 21, ticketId: 8, body: 'Hola' }), pedro);
    // Not granted: no notification; volume 0: no sound.
    expect(shown).toEqual([]);
    expect(chimes).toEqual([]);
  });

  it('keeps the chat on screen read as messages arrive, at most once every 2 s', async () => {
    const fetchMock = stubApi({
      'GET /tickets': () => listOf([]),
      [`GET /tickets/u/${open.uuid}`]: () => jsonResponse(200, open),
      'GET /messages/7': () => messagesOf(open, []),
    });
    renderApp(`/tickets/${open.uuid}`, makeAuth());
    await screen.findByText('Resolver');
    const reads = () =>
      callsOf(fetchMock).filter((call) => call === 'GET /messages/7?pageNumber=1').length;
    expect(reads()).toBe(1);

    const unread = { ...open, unreadMessages: 1 };
    // The pause is the subject: the clock stands still, and moves only when told.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    await receiveAppMessage(makeMessage({ id: 30, ticketId: 7, body: 'Uno' }), unread);
    expect(reads()).toBe(2);
    await receiveAppMessage(makeMessage({ id: 31, ticketId: 7, body: 'Dos' }), unread);
    await receiveAppMessage(makeMessage({ id: 32, ticketId: 7, body: 'Tres' }), unread);
    // My own messages are read already; another chat's are not this one's to read.
    await receiveAppMessage(makeMessage({ id: 33, ticketId: 7, fromMe: true }), open);
    await receiveAppMessage(makeMessage({ id: 34, ticketId: 8 }), pedro);
    expect(reads()).toBe(2);
    // The two that came within 2 s are read together when the pause ends.
    await act(() => vi.advanceTimersByTimeAsync(MARK_READ_THROTTLE_MS - 1));
    expect(reads()).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(reads()).toBe(3);
  });
});

describe('assignment notifications', () => {
  // A ticket update as automatic assignment sends it: `routedTo` says who just got the ticket.
  const routed = (ticket: TicketView, routedTo: number) =>
    receiveTicket({ action: 'update', ticket, routedTo });
  const assigned = (ticket: TicketView, userId: number) => ({
    ...ticket,
    status: 'open' as const,
    userId,
    user: { id: userId, name: userId === 1 ? 'Ana Admin' : 'Carlos' },
  });

  it('notifies me when a conversation is assigned to me, not to others, nor the chat on screen', async () => {
    window.localStorage.setItem('volume', '0.4');
    stubApi({
      'GET /tickets': () => listOf([]),
      [`GET /tickets/u/${open.uuid}`]: () => jsonResponse(200, open),
      'GET /messages/7': () => messagesOf(open, []),
      [`GET /tickets/u/${pedro.uuid}`]: () => jsonResponse(200, assigned(pedro, 1)),
      'GET /messages/8': () =>
        messagesOf(assigned(pedro, 1), [
          makeMessage({ id: 21, ticketId: 8, body: 'Mensaje de Pedro' }),
        ]),
    });
    renderApp(`/tickets/${open.uuid}`, makeAuth());
    await screen.findByText('Resolver');

    // Given to someone else, an update without routing, and the chat I am looking at: nothing.
    await routed(assigned(pedro, 5), 5);
    await receiveTicket({ action: 'update', ticket: assigned(pedro, 1) });
    await routed(assigned(open, 1), 1);
    expect(shown).toEqual([]);
    expect(chimes).toEqual([]);

    await routed(assigned(pedro, 1), 1);
    expect(shown).toHaveLength(1);
    expect(shown[0].title).toBe('Conversación asignada');
    expect(await screen.findByText('Conversación asignada: Pedro Ruiz')).toBeTruthy();
    expect(shown[0].options).toMatchObject({ body: 'Pedro Ruiz', tag: '8' });
    expect(chimes).toEqual([0.1]);

    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    act(() => shown[0].instance.onclick?.());
    expect(focus).toHaveBeenCalled();
    expect(shown[0].instance.close).toHaveBeenCalled();
    expect(await screen.findByText('Mensaje de Pedro')).toBeTruthy();
  });

  it('says it in the chosen language', async () => {
    window.localStorage.setItem('volume', '0');
    stubApi({ 'GET /tickets': () => listOf([]) });
    renderApp('/todolist', makeAuth());
    await act(() => i18n.changeLanguage('en'));
    await waitFor(() => expect(getSocket()).not.toBeNull());

    await routed(assigned(pedro, 1), 1);
    expect(shown.map(({ title, options }) => [title, options.body])).toEqual([
      ['Conversation assigned', 'Pedro Ruiz'],
    ]);
  });
});

describe('SLA notices', () => {
  it('warns of a deadline near and tells of a breach in the page; a click opens the chat', async () => {
    window.localStorage.setItem('volume', '0.4');
    stubApi({
      'GET /tickets': () => listOf([]),
      'GET /tickets/8': () => jsonResponse(200, pedro),
      'GET /messages/8': () =>
        messagesOf(pedro, [makeMessage({ id: 21, ticketId: 8, body: 'Mensaje de Pedro' })]),
    });
    renderApp('/todolist', makeAuth());
    await waitFor(() => expect(getSocket()).not.toBeNull());
    const notice = (action: string, minutesLeft: number) =>
      act(async () => {
        (getSocket() as unknown as FakeSocket).receive('company-1-sla', {
          action,
          ticketId: 8,
          kind: 'firstResponse',
          dueAt: new Date(Date.now() + minutesLeft * 60_000).toISOString(),
          contactName: 'Pedro Ruiz',
        });
      });

    await notice('warning', 5);
    expect(
      await screen.findByText('SLA de Pedro Ruiz: Primera respuesta vence en 5 min'),
    ).toBeTruthy();
    expect(chimes).toEqual([0.1]);
    await notice('breached', 0);
    const breached = await screen.findByText('SLA de Pedro Ruiz: Primera respuesta vencido');
    // Malformed notices are ignored.
    await act(async () => {
      (getSocket() as unknown as FakeSocket).receive('company-1-sla', { action: 'warning' });
    });
    expect(chimes).toHaveLength(2);

    const user = setupUser();
    await user.click(breached);
    expect(await screen.findByText('Mensaje de Pedro')).toBeTruthy();
  });
});

describe('notifications bell', () => {
  const badge = () => screen.getByTestId('notifications-count').querySelector('.MuiBadge-badge')!;

  it('counts the unread tickets awaiting me on any page, live', async () => {
    const mine = withContact(1, 'María López', { unreadMessages: 2, updatedAt: todayAt(9, 30) });
    const others = withContact(3, 'Raúl Díaz', {
      unreadMessages: 4,
      userId: 5,
      user: { id: 5, name: 'Carlos' },
    });
    const closed = withContact(4, 'Ana Ruiz', { status: 'closed', unreadMessages: 1 });
    const fetchMock = stubApi({
      'GET /tickets': () =>
        listOf([
          mine,
          // The bot's menu answered Pedro: the preview is still what he wrote.
          {
            ...pedro,
            lastMessage: '*Elija una opción:* 1 - Ventas',
            lastContactMessage: '*Hola*, ¿tienen envíos?',
          },
          others,
          closed,
        ]),
      [`GET /tickets/u/${pedro.uuid}`]: () => jsonResponse(200, pedro),
      'GET /messages/8': () =>
        messagesOf(pedro, [makeMessage({ id: 21, ticketId: 8, body: 'Mensaje de Pedro' })]),
    });
    const user = setupUser();
    renderApp('/todolist', makeAuth());

    await waitFor(() => expect(badge().textContent).toBe('2'));
    expect(callsOf(fetchMock)).toContain(
      'GET /tickets?withUnreadMessages=true&showAll=true&pageNumber=1',
    );
    const socket = getSocket() as unknown as FakeSocket;
    await act(async () => socket.receive('connect'));
    expect(socket.emitted).toContainEqual(['joinNotification']);

    const lucia = withContact(9, 'Lucía Gómez', {
      status: 'pending',
      userId: null,
      user: null,
      unreadMessages: 1,
    });
    await receiveAppMessage(makeMessage({ id: 40, ticketId: 9 }), lucia);
    expect(badge().textContent).toBe('3');
    await receiveTicket({ action: 'updateUnread', ticketId: 1 });
    expect(badge().textContent).toBe('2');
    // Someone else took Lucía's ticket: no longer awaiting me.
    await receiveTicket({
      action: 'update',
      ticket: { ...lucia, status: 'open', userId: 5, user: { id: 5, name: 'Carlos' } },
    });
    expect(badge().textContent).toBe('1');

    await user.click(screen.getByTestId('notifications-button'));
    const list = await screen.findByRole('list', { name: 'Notificaciones' });
    const rows = within(list).getAllByRole('button');
    expect(rows).toHaveLength(1);
    expect(within(rows[0]).getByText('Pedro Ruiz')).toBeTruthy();
    expect(within(rows[0]).getByText('Hola, ¿tienen envíos?')).toBeTruthy();
    expect(within(rows[0]).getByTitle('1 mensaje sin leer').textContent).toBe('1');
    await user.click(rows[0]);
    expect(await screen.findByText('Mensaje de Pedro')).toBeTruthy();

    await receiveTicket({ action: 'delete', ticketId: 8 });
    expect(badge().className).toContain('MuiBadge-invisible');
  });
});
