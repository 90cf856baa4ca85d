import { refusalIn } from '../../platform/outbound';
import { createHmac } from 'node:crypto';
import { z } from 'zod';

// The n8n and webhook integrations' wire protocol: each inbound message is POSTed as JSON, signed with
// the integration's secret; the receiver may answer with replies for the contact and an action.
//
//   X-Atendi-Event: message.received
//   X-Atendi-Delivery: msg-{messageId}          (the same on every retry: receivers drop repeats)
//   X-Atendi-Timestamp: {unix seconds}
//   X-Atendi-Signature: sha256={hex HMAC-SHA256(secret, "{timestamp}.{body}")}

const SIGNATURE_HEADER = 'x-atendi-signature';
const TIMESTAMP_HEADER = 'x-atendi-timestamp';

const signPayload = (secret: string, timestamp: number, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

// What a receiver may answer (any other 2xx body is an acknowledgement without replies).
export const webhookAnswerSchema = z.object({
  replies: z
    .array(z.object({ text: z.string().trim().min(1).max(4096) }))
    .max(10)
    .optional()
    .default([]),
  // transfer: a person takes over (in queueId when given); close: the conversation ends.
  action: z.enum(['transfer', 'close']).optional(),
  queueId: z.number().int().positive().optional(),
});
export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>;

export type WebhookEvent = {
  event: 'message.received';
  company: { id: number };
  integration: { id: number; name: string; type: string };
  ticket: { id: number; uuid: string; status: string; queueId: number | null; whatsappId: number };
  contact: { id: number; name: string; number: string };
  message: { id: number; body: string; mediaType: string; createdAt: string };
};

type Delivery = {
  status: number | null;
  ok: boolean;
  durationMs: number;
  error: string | null;
  answer: WebhookAnswer | null;
  // The guard would not call the URL (a private address): trying again cannot help.
  refused?: boolean;
};

// One attempt: a network failure, a timeout or a non-2xx status is not ok (the caller retries); a 2xx
// body that is not an answer is ok with no answer, and says why.
export const postEvent = async (
  fetcher: typeof fetch,
  url: string,
  secret: string,
  event: WebhookEvent,
  timeoutMs: number,
): Promise<Delivery> => {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  const started = Date.now();
  try {
    const res = await fetcher(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Atendi-Webhooks/1',
        'x-atendi-event': event.event,
        'x-atendi-delivery': `msg-${event.message.id}`,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signPayload(secret, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const durationMs = Date.now() - started;
    if (!res.ok)
      return {
        status: res.status,
        ok: false,
        durationMs,
        error: `HTTP ${res.status}`,
        answer: null,
      };
    if (!text.trim())
      return { status: res.status, ok: true, durationMs, error: null, answer: null };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return {
        status: res.status,
        ok: true,
        durationMs,
        error: 'The answer is not JSON',
        answer: null,
      };
    }
    const answer = webhookAnswerSchema.safeParse(parsed);
    return answer.success
      ? { status: res.status, ok: true, durationMs, error: null, answer: answer.data }
      : {
          status: res.status,
          ok: true,
          durationMs,
          error: `The answer is not understood: ${answer.error.issues[0]?.path.join('.') || 'body'}`,
          answer: null,
        };
  } catch (error) {
    const refusal = refusalIn(error);
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return {
      status: null,
      ok: false,
      durationMs: Date.now() - started,
      error: refusal
        ? `Not sent: ${refusal.message}`
        : timedOut
          ? `No answer within ${timeoutMs} ms`
          : 'The receiver cannot be reached',
      answer: null,
      refused: Boolean(refusal),
    };
  }
};
