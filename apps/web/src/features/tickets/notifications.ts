import { useEffect } from 'react';
import { toast } from 'react-toastify';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  slaKinds,
  ticketsContract,
  type AppMessageEvent,
  type SlaKind,
  type MessageView,
  type TicketEvent,
  type TicketView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { useCompanyEvent, useSocketRoom } from '../../api/socket';
import { readVolume } from '../../lib/volume';
import { stripWhatsappFormat } from '../../lib/whatsapp-format';

// The bell's tickets: those waiting for an answer from this user, with unread messages.
const unreadTicketsKey = (userId: number) => ['tickets', 'unread', userId] as const;

const PREVIEW_LENGTH = 120;

// A conversation this user is expected to answer: their own, or one nobody holds yet. Which of
// those reach the screen at all is the server's call (SPEC §6; allTicket users hear every pending one).
const isAwaitingMe = (ticket: TicketView, userId: number) =>
  ticket.status !== 'closed' && (ticket.userId === userId || ticket.userId === null);

const belongsInBell = (ticket: TicketView, userId: number) =>
  ticket.unreadMessages > 0 && isAwaitingMe(ticket, userId);

const newestFirst = (a: TicketView, b: TicketView) =>
  Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id;

// showAll is honoured for those who see every ticket and ignored for the rest (the API's list scope).
const fetchUnreadTickets = async (userId: number) => {
  const page = await call(ticketsContract.listTickets, {
    query: { withUnreadMessages: 'true', showAll: 'true', pageNumber: 1 },
  });
  return page.tickets.filter((ticket) => belongsInBell(ticket, userId)).sort(newestFirst);
};

const applyToUnreadTickets = (
  list: TicketView[] | undefined,
  event: TicketEvent,
  userId: number,
): TicketView[] | undefined => {
  if (!list) return list;
  if (event.action !== 'update') return list.filter((row) => row.id !== event.ticketId);
  const rest = list.filter((row) => row.id !== event.ticket.id);
  return belongsInBell(event.ticket, userId) ? [...rest, event.ticket].sort(newestFirst) : rest;
};

const applyToCache = (queryClient: QueryClient, event: TicketEvent, userId: number) =>
  queryClient.setQueryData<TicketView[]>(unreadTicketsKey(userId), (list) =>
    applyToUnreadTickets(list, event, userId),
  );

// SPEC §2 App shell: the bell counts the unread tickets, live from ticket and message events.
export const useUnreadTickets = () => {
  const queryClient = useQueryClient();
  const { user } = useCurrentSession();
  // Notifications reach every screen, not only the inbox (SPEC §7 joinNotification).
  useSocketRoom('joinNotification');
  const query = useQuery({
    queryKey: unreadTicketsKey(user.id),
    queryFn: () => fetchUnreadTickets(user.id),
    // Silent: a bell without a count is better than a toast on every screen.
    meta: { silent: true },
  });
  useCompanyEvent<TicketEvent>('ticket', (event) => {
    const isWellFormed =
      event?.action === 'update' ? Boolean(event.ticket) : typeof event?.ticketId === 'number';
    if (isWellFormed) applyToCache(queryClient, event, user.id);
  });
  useCompanyEvent<AppMessageEvent>('appMessage', (event) => {
    if (event?.ticket)
      applyToCache(queryClient, { action: 'update', ticket: event.ticket }, user.id);
  });
  return query.data ?? [];
};

// SPEC §9: a short two-tone chime from WebAudio at the volume the user chose; no sound file needed.
let audioContext: AudioContext | null = null;

const playNotificationSound = (volume = readVolume()) => {
  if (volume <= 0 || typeof window.AudioContext === 'undefined') return;
  try {
    audioContext ??= new window.AudioContext();
    const context = audioContext;
    // Browsers start a context suspended until the page has seen a click; later ones resume it.
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const start = context.currentTime;
    const gain = context.createGain();
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.25 * volume, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
    gain.connect(context.destination);
    const tone = context.createOscillator();
    tone.type = 'sine';
    tone.frequency.setValueAtTime(880, start);
    tone.frequency.setValueAtTime(1320, start + 0.12);
    tone.connect(gain);
    tone.start(start);
    tone.stop(start + 0.36);
  } catch {
    // No sound is better than a broken page.
  }
};

const canNotify = () =>
  typeof window.Notification !== 'undefined' && window.Notification.permission === 'granted';

// Asked when the inbox opens, until the user answers (SPEC §9 "Browser notification for new messages").
export const useNotificationPermissionRequest = () => {
  useEffect(() => {
    if (typeof window.Notification === 'undefined') return;
    if (window.Notification.permission === 'default')
      // Older Safari answers through a callback and returns nothing.
      void Promise.resolve(window.Notification.requestPermission()).catch(() => undefined);
  }, []);
};

// The ticket reference in /tickets/{uuid or old numeric id}, if a chat is open.
const openTicketRef = (pathname: string) => /^\/tickets\/([^/]+)/.exec(pathname)?.[1] ?? null;

const contactNameOf = (ticket: TicketView) => ticket.contact.name || ticket.contact.number;

// Their bodies are data (coordinates, vCard text, call details), not words to show.
const LABELLED_TYPES = ['locationMessage', 'vcard', 'call_log'];

const previewOf = (message: MessageView, mediaLabel: (type: string) => string) => {
  const text = stripWhatsappFormat(message.body).trim();
  const shown =
    text && !LABELLED_TYPES.includes(message.mediaType) ? text : mediaLabel(message.mediaType);
  return shown.length > PREVIEW_LENGTH ? `${shown.slice(0, PREVIEW_LENGTH - 1)}…` : shown;
};

const isOnScreen = (ticket: TicketView, pathname: string) => {
  const ref = openTicketRef(pathname);
  return ref === ticket.uuid || ref === String(ticket.id);
};

// Rings and shows a browser notification about a conversation; clicking it opens the chat.
const useTicketNotifier = () => {
  const navigate = useNavigate();
  return (ticket: TicketView, title: string, body: string) => {
    playNotificationSound();
    if (!canNotify()) return;
    try {
      const notification = new window.Notification(title, {
        body,
        // One notification per conversation: a newer one replaces the older one.
        tag: String(ticket.id),
        icon: ticket.contact.urlPicture || ticket.contact.profilePicUrl || undefined,
      });
      notification.onclick = () => {
        window.focus();
        navigate(`/tickets/${ticket.uuid}`);
        notification.close();
      };
    } catch {
      // Some mobile browsers allow notifications only from a service worker.
    }
  };
};

// SPEC §4/§9: a new message from a contact, in a conversation awaiting this user, rings and shows a
// browser notification, unless it is the chat on screen in a focused window.
export const useMessageNotifications = () => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user } = useCurrentSession();
  const notify = useTicketNotifier();

  useCompanyEvent<AppMessageEvent>('appMessage', (event) => {
    if (event?.action !== 'create' || !event.message || !event.ticket) return;
    const { message, ticket } = event;
    if (message.fromMe || !isAwaitingMe(ticket, user.id)) return;
    if (isOnScreen(ticket, pathname) && document.hasFocus()) return;
    notify(
      ticket,
      contactNameOf(ticket),
      previewOf(message, (type) => t(`tickets.media.${type}`, { defaultValue: '' })),
    );
  });
};

// Issue 36: a conversation automatic assignment gives this user rings and shows a browser
// notification like a new message's, and a notice in the page, unless it is the chat on screen.
export const useAssignmentNotifications = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { user } = useCurrentSession();
  const notify = useTicketNotifier();

  useCompanyEvent<TicketEvent>('ticket', (event) => {
    if (event?.action !== 'update' || !event.ticket || event.routedTo !== user.id) return;
    const { ticket } = event;
    if (isOnScreen(ticket, pathname)) return;
    notify(ticket, t('tickets.assignedNotice'), contactNameOf(ticket));
    // In the page too (the browser's notification may be refused): a click opens the chat.
    toast.info(`${t('tickets.assignedNotice')}: ${contactNameOf(ticket)}`, {
      toastId: `assigned-${ticket.id}-${ticket.version}`,
      onClick: () => navigate(`/tickets/${ticket.uuid}`),
    });
  });
};

// company-{id}-sla: an SLA deadline of a conversation this user holds (or of their queue, while
// nobody holds it) is near or was missed.
type SlaNotice = {
  action: 'warning' | 'breached';
  ticketId: number;
  kind: SlaKind;
  dueAt: string;
  contactName: string;
};
const isSlaNotice = (event: unknown): event is SlaNotice => {
  const notice = event as Partial<SlaNotice> | null | undefined;
  return (
    (notice?.action === 'warning' || notice?.action === 'breached') &&
    typeof notice.ticketId === 'number' &&
    slaKinds.includes(notice.kind as SlaKind) &&
    typeof notice.dueAt === 'string'
  );
};

// Issue 36: the agent is warned before a breach, and told of one, in the page (a toast that opens
// the chat) with the notification sound.
export const useSlaNotifications = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useCompanyEvent<SlaNotice>('sla', (event) => {
    if (!isSlaNotice(event)) return;
    const kind = t(`tickets.sla.kinds.${event.kind}`);
    const minutes = Math.max(1, Math.round((Date.parse(event.dueAt) - Date.now()) / 60_000));
    const text =
      event.action === 'warning'
        ? t('tickets.sla.warning', { contact: event.contactName, kind, span: `${minutes} min` })
        : t('tickets.sla.breachedNotice', { contact: event.contactName, kind });
    playNotificationSound();
    const show = event.action === 'warning' ? toast.warning : toast.error;
    // A click on it opens the chat.
    show(text, {
      toastId: `sla-${event.ticketId}-${event.action}-${event.dueAt}`,
      onClick: () => navigate(`/tickets/${event.ticketId}`),
    });
  });
};
