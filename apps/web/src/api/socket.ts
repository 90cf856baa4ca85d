import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import { toast } from 'react-toastify';
import { i18n } from '../i18n/i18n';
import { reloadPage } from '../lib/browser';
import { decodeTokenPayload } from '../lib/jwt';
import { removeStorage, storageKeys } from '../lib/storage';
import { ApiError, NETWORK_ERROR, refreshSession } from './http-client';
import { getApiUrl } from './runtime-config';
import { getToken, subscribeSession, useSession } from './session';
import { ERROR_TOAST_MS } from './toasts';

// SPEC §9: presence ping every 5 minutes; reload delay after another login: 1 s.
const USER_STATUS_INTERVAL_MS = 300_000;
const ELSEWHERE_RELOAD_MS = 1000;
const EXPIRED_TOKEN_ERRORS = ['ERR_INVALID_TOKEN', 'ERR_SESSION_EXPIRED'];

type AuthEventPayload = {
  action: 'update';
  user: { id: number };
  sessionId: string;
};

type Connection = { socket: Socket; stop: () => void };

let connection: Connection | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

// Answers whether the session ended because the account logged in elsewhere.
const handleAuthEvent = (userId: number, payload: AuthEventPayload) => {
  if (payload?.action !== 'update' || payload.user?.id !== userId) return false;
  if (typeof payload.sessionId !== 'string') return false;
  if (payload.sessionId === decodeTokenPayload(getToken())?.sid) return false;
  toast.error(i18n.t('session.usedElsewhere'), { autoClose: ERROR_TOAST_MS });
  removeStorage(storageKeys.token);
  setTimeout(reloadPage, ELSEWHERE_RELOAD_MS);
  return true;
};

export const connectSocket = ({ userId, companyId }: { userId: number; companyId: number }) => {
  disconnectSocket();
  const socket = io(getApiUrl(), {
    transports: ['websocket'],
    query: { token: getToken() ?? '' },
  });

  let usedElsewhere = false;
  socket.on(`company-${companyId}-auth`, (payload: AuthEventPayload) => {
    usedElsewhere = handleAuthEvent(userId, payload) || usedElsewhere;
  });
  // Refreshes the token and reconnects in place, so an agent mid-typing keeps the page. SPEC §7's
  // reload remains the answer when the session is gone; an unreachable API is tried again.
  const resume = () =>
    refreshSession()
      .then(({ token }) => {
        socket.io.opts.query = { ...socket.io.opts.query, token };
        socket.connect();
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === NETWORK_ERROR) socket.connect();
        else reloadPage();
      });
  socket.on('connect_error', (error: Error) => {
    // The access token outlived a reconnect.
    if (EXPIRED_TOKEN_ERRORS.includes(error.message)) void resume();
  });
  socket.on('disconnect', (reason: string) => {
    // The server drops the sockets of an ended session (logout, password change) and all of them
    // when it stops; socket.io does not reconnect on its own after that.
    if (reason === 'io server disconnect' && !usedElsewhere) void resume();
  });

  // Reconnections read the handshake query again, so keep it on the newest token.
  const stopTokenSync = subscribeSession(() => {
    const token = getToken();
    if (token) socket.io.opts.query = { ...socket.io.opts.query, token };
  });
  const statusTimer = setInterval(() => socket.emit('userStatus'), USER_STATUS_INTERVAL_MS);

  connection = {
    socket,
    stop: () => {
      stopTokenSync();
      clearInterval(statusTimer);
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
  notify();
  return socket;
};

export const disconnectSocket = () => {
  if (!connection) return;
  connection.stop();
  connection = null;
  notify();
};

export const getSocket = () => connection?.socket ?? null;

const subscribeSocket = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const useSocket = () => useSyncExternalStore(subscribeSocket, getSocket);

// Subscribes to company-{companyId}-{event} (e.g. 'appMessage', 'contact') while mounted.
export const useCompanyEvent = <T>(event: string, handler: (payload: T) => void) => {
  const socket = useSocket();
  const companyId = useSession().session?.user.companyId;
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    if (!socket || companyId === undefined) return;
    const name = `company-${companyId}-${event}`;
    const listener = (payload: T) => onEvent(payload);
    socket.on(name, listener);
    return () => {
      socket.off(name, listener);
    };
  }, [socket, companyId, event]);
};

// Joins a room (joinChatBox, joinTickets, joinNotification) now and after every reconnect.
// onJoined runs once the server has joined it: the moment to reload what events may have missed.
export const useSocketRoom = (
  joinEvent: string,
  argument?: string | number,
  onJoined?: () => void,
) => {
  const socket = useSocket();
  const joined = useEffectEvent(() => onJoined?.());
  useEffect(() => {
    if (!socket) return;
    const join = () => {
      const ack = () => joined();
      if (argument === undefined) socket.emit(joinEvent, ack);
      else socket.emit(joinEvent, argument, ack);
    };
    if (socket.connected) join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
    };
  }, [socket, joinEvent, argument]);
};
