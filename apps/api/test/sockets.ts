import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import type { App } from '../src/app';
import type { Session } from './harness';

// Helpers for tests that check the live events a session's browser would hear.

export type Heard<P = Record<string, unknown>> = { event: string; payload: P };

const opened: Socket[] = [];
const socketOf = new WeakMap<Heard<unknown>[], Socket>();
const ports = new WeakMap<App, Promise<number>>();

// The app's local port: it starts listening on a free one the first time a socket needs it.
const portOf = (app: App) => {
  let port = ports.get(app);
  if (!port) {
    port = app
      .listen({ port: 0, host: '127.0.0.1' })
      .then(() => (app.server.address() as AddressInfo).port);
    ports.set(app, port);
  }
  return port;
};

// A connected socket of the session (closed by closeSockets unless the test closes it first).
export const openSocket = async (
  app: App,
  session: Pick<Session, 'token'>,
  options: { reconnection?: boolean } = { reconnection: false },
) => {
  const socket = connect(`http://127.0.0.1:${await portOf(app)}`, {
    query: { token: session.token },
    transports: ['websocket'],
    forceNew: true,
    ...options,
  });
  opened.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  return socket;
};

// A connected socket of the session, recording every event it hears. `join` enters rooms the way a
// page does (a ticket's chat, a list) before the recording is handed back. Colleagues' presence
// (company-{id}-presence, heard whenever anyone of the company connects or leaves) is left out unless
// `presence` is asked for: it is no part of what other tests watch.
export const listenAs = async <P = Record<string, unknown>>(
  app: App,
  session: Pick<Session, 'token'>,
  join?: (socket: Socket) => Promise<unknown>,
  options: { presence?: boolean } = {},
): Promise<Heard<P>[]> => {
  const socket = await openSocket(app, session, {});
  const heard: Heard<P>[] = [];
  socket.onAny((event: string, payload: P) => {
    if (options.presence || !event.endsWith('-presence')) heard.push({ event, payload });
  });
  socketOf.set(heard as Heard<unknown>[], socket);
  await join?.(socket);
  return heard;
};

// The barrier before asserting that a recording did NOT hear something: asks the server a question
// on the recording's socket and waits for the answer. Socket.io keeps one connection's packets in
// order, so once the answer is back, every event emitted to that socket before the question (by the
// requests the test already awaited) has been recorded. (joinNotification is acknowledged by every
// socket; it also joins the notification rooms, so call it after the actions under test.)
export const caughtUp = async (...recordings: Heard<unknown>[][]) => {
  for (const heard of recordings) {
    const socket = socketOf.get(heard);
    if (!socket) throw new Error('caughtUp: not a recording of listenAs');
    await socket.timeout(5000).emitWithAck('joinNotification');
  }
};

// For afterAll, before the app closes: disconnects every socket listenAs opened.
export const closeSockets = () => {
  for (const socket of opened.splice(0)) socket.disconnect();
};
