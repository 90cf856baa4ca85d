import { z } from 'zod';
import { mediaTypes } from '@atendi/shared';
import type { Db } from '../../db/client';
import {
  enqueueJobs,
  jobQueue,
  refsWithStatus,
  retryFailedJob,
  withdrawJobs,
} from '../../jobs/queue';
import type { TemplateSend } from '../../channels/driver';
import type { OutgoingMedia } from './message-form';

// The sends of outgoing messages as jobs of the one background queue: queued with their message,
// looked up, retried and withdrawn here; run by the outbox (outbox.ts).

export const OUTBOX_QUEUE = 'message.send';
// What a job carries: its message, the stored file's details (the message row has no mimetype), and
// for a Cloud API template the template to send.
export type OutboxPayload = {
  messageId: number;
  media: OutgoingMedia | null;
  template?: TemplateSend;
};

const outgoingMedia = z.object({
  storedName: z.string(),
  fileName: z.string(),
  mimetype: z.string(),
  mediaType: z.enum(mediaTypes),
}) satisfies z.ZodType<OutgoingMedia>;
const parameters = z.array(z.object({ name: z.string(), value: z.string() }));

export const outboxQueue = jobQueue<OutboxPayload>(
  OUTBOX_QUEUE,
  z.object({
    messageId: z.number().int(),
    media: outgoingMedia.nullable(),
    template: z
      .object({
        name: z.string(),
        language: z.string(),
        header: parameters,
        body: parameters,
        headerMedia: outgoingMedia.optional(),
      })
      .optional() satisfies z.ZodType<TemplateSend | undefined>,
  }),
);

const refOf = (messageId: number) => `message:${messageId}`;

// Queues the sends of just-written messages in the caller's transaction (one statement for any
// number of tickets), each in its ticket's order.
export const queueSends = (
  tx: Db,
  sends: (OutboxPayload & { ticket: { id: number; companyId: number } })[],
) =>
  enqueueJobs(
    tx,
    outboxQueue,
    sends.map(({ ticket, ...send }) => ({
      payload: send,
      key: `ticket:${ticket.id}`,
      ref: refOf(send.messageId),
      companyId: ticket.companyId,
    })),
  );

// The messages among `ids` whose send was given up.
export const failedSends = async (db: Db, ids: number[]) => {
  const refs = await refsWithStatus(db, outboxQueue, ids.map(refOf), 'failed');
  return new Set(ids.filter((id) => refs.has(refOf(id))));
};

// A message whose send was given up goes back to the queue, due now; false if it had not failed.
export const retrySend = (db: Db, messageId: number) =>
  retryFailedJob(db, outboxQueue, refOf(messageId));

// Takes back a send that has not started, in the caller's transaction ('started' if it has).
export const withdrawSend = (tx: Db, messageId: number) =>
  withdrawJobs(tx, outboxQueue, refOf(messageId));
