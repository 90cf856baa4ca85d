import { useCallback, useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  messagesContract,
  quickMessagesContract,
  templatesContract,
  ticketsContract,
  type QuickMessageEvent,
  type QuickMessageView,
  type TemplateSendInput,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { useCompanyEvent } from '../../api/socket';
import { applyMessagesToCache, closeReplyWindow, isWindowClosedError } from './tickets.api';

const composerKeys = {
  quickMessages: ['quick-messages', 'list'] as const,
};

// SPEC §7: a send with files is multipart: medias (one part per file), body, quotedMsg.
type MediaSend = { files: File[]; body: string; quotedMsg?: number; key?: string };

const sendMedia = (ticketId: number, { files, body, quotedMsg, key }: MediaSend) => {
  const form = new FormData();
  form.append('body', body);
  if (quotedMsg) form.append('quotedMsg', String(quotedMsg));
  files.forEach((file) => form.append('medias', file, file.name));
  return call(
    messagesContract.sendMessage,
    { params: { ticketId }, body: form },
    key ? { headers: { 'Idempotency-Key': key } } : undefined,
  );
};

// Failures toast through the query client with the translated error code.
export const useSendMedia = (ticketId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MediaSend) => sendMedia(ticketId, input),
    onSuccess: (messages) => applyMessagesToCache(queryClient, ticketId, messages),
    onError: (error) => {
      if (isWindowClosedError(error)) closeReplyWindow(queryClient, ticketId, error.details);
    },
  });
};

// Issue 40: a reply drafted by the model from the conversation and the knowledge base; only answered
// (the agent edits and sends it). Failures toast through the query client with the translated code.
export const useSuggestReply = (ticketId: number) =>
  useMutation({
    mutationFn: () => call(ticketsContract.suggestTicketReply, { params: { id: ticketId } }),
  });

// Issue 39: the contact sees "typing…" while the agent writes. Told when writing starts and again
// every few seconds while it goes on (WhatsApp shows it for a while), and that it stopped after a
// pause or when the chat closes. Best effort: a refusal is nothing the agent needs to see.
const TYPING_REPEAT_MS = 4000;
const TYPING_IDLE_MS = 5000;
export const useTypingSignal = (ticketId: number) => {
  const state = useRef<{ lastAt: number; idle?: ReturnType<typeof setTimeout> }>({ lastAt: 0 });
  const tell = useCallback(
    (typing: boolean) =>
      void call(messagesContract.agentTyping, { params: { ticketId }, body: { typing } }).catch(
        () => undefined,
      ),
    [ticketId],
  );
  useEffect(() => {
    const current = state.current;
    return () => {
      if (current.idle === undefined) return;
      clearTimeout(current.idle);
      current.idle = undefined;
      current.lastAt = 0;
      tell(false);
    };
  }, [tell]);
  return useCallback(() => {
    const current = state.current;
    const now = Date.now();
    if (now - current.lastAt >= TYPING_REPEAT_MS) {
      current.lastAt = now;
      tell(true);
    }
    clearTimeout(current.idle);
    current.idle = setTimeout(() => {
      current.idle = undefined;
      current.lastAt = 0;
      tell(false);
    }, TYPING_IDLE_MS);
  }, [tell]);
};

// Cloud API tickets whose 24-hour window is closed take only an approved template (the connection's
// templates: api/queries/templates.ts), sent with one value per parameter.
export const sendTemplate = (ticketId: number, input: TemplateSendInput) =>
  call(templatesContract.sendTemplateMessage, { params: { ticketId }, body: input });

// A quick answer's attachment as a File, so it goes out through the composer's own attachments.
// The signed link needs no token (platform/uploads.ts).
export const fetchQuickMessageFile = async (
  answer: Pick<QuickMessageView, 'mediaUrl' | 'mediaName'>,
) => {
  if (!answer.mediaUrl) throw new Error('The quick answer has no attachment');
  const response = await fetch(answer.mediaUrl);
  if (!response.ok) throw new Error(`The attachment answered ${response.status}`);
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  return new File([await response.arrayBuffer()], answer.mediaName ?? 'file', { type });
};

const fetchQuickMessages = (companyId: number, userId: number) =>
  call(quickMessagesContract.listAllQuickMessages, { query: { companyId, userId } });

// The composer's quick answers: fetched the first time "/" is typed, then kept and refreshed live.
export const useQuickMessages = (enabled: boolean) => {
  const { user } = useCurrentSession();
  const queryClient = useQueryClient();
  useCompanyEvent<QuickMessageEvent>('quickemessage', () => {
    void queryClient.invalidateQueries({ queryKey: composerKeys.quickMessages });
  });
  return useQuery({
    queryKey: composerKeys.quickMessages,
    queryFn: () => fetchQuickMessages(user.companyId, user.id),
    enabled,
    staleTime: 5 * 60_000,
    // The list says so in place; a toast on every "/" would only get in the way.
    meta: { silent: true },
  });
};
