import { companyTimeZone } from '../../platform/time-zones';
import { sqlTime } from '../../platform/sql-time';
import path from 'node:path';
import { and, asc, desc, eq, getTableColumns, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { contacts, messages, schedules, tickets, users, whatsapps } from '../../db/schema';
import { AppError } from '../../platform/errors';
import {
  discardMedia,
  mediaTypeOf,
  mimetypeOf,
  queueOutgoing,
  type OutgoingMedia,
} from '../messages';
import { fillVariables, messageCreated, ticketChanged } from '../tickets';
import { getDefaultWhatsapp } from '../whatsapps';
import { emitSchedule, type ScheduleRow } from './schedules.service';

// Sends what fell due (SPEC §4 Scheduled messages) on the job runner. Each due schedule is claimed by a
// conditional UPDATE (still unsent, still pending, still due) in the same transaction that queues its
// message in the outbox, so it is queued exactly once: by the first run after it fell due, on whichever
// node, even if none ran at the time. One that cannot be sent (no connection) is marked ERRO and waits
// for an edit instead of being tried again every run.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'outbox' | 'config' | 'events'>;
type TicketRow = typeof tickets.$inferSelect;

export const SCHEDULES_JOB = 'schedules';
const BATCH = 100;

const dueNow = (now: Date) =>
  and(
    isNull(schedules.sentAt),
    eq(schedules.status, 'PENDENTE'),
    lte(schedules.sendAt, sql`${sqlTime(now)}`),
  );

// The conversation to write in: the contact's active ticket on any connection, else a new one on the
// connection of the schedule's user (or the company's default), given to that user.
const ticketFor = async (tx: Db, schedule: ScheduleRow, contact: { isGroup: boolean }) => {
  const [active] = await tx
    .select()
    .from(tickets)
    .where(and(eq(tickets.contactId, schedule.contactId), ne(tickets.status, 'closed')))
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(1);
  if (active) return { ticket: active, created: false };
  const [owner] = schedule.userId
    ? await tx
        .select({ whatsappId: users.whatsappId })
        .from(users)
        .where(and(eq(users.id, schedule.userId), eq(users.companyId, schedule.companyId)))
    : [];
  const [own] = owner?.whatsappId
    ? await tx
        .select({ id: whatsapps.id })
        .from(whatsapps)
        .where(and(eq(whatsapps.id, owner.whatsappId), eq(whatsapps.companyId, schedule.companyId)))
    : [];
  const whatsappId = own?.id ?? (await getDefaultWhatsapp(tx, schedule.companyId)).id;
  const [row] = await tx
    .insert(tickets)
    .values({
      companyId: schedule.companyId,
      contactId: schedule.contactId,
      whatsappId,
      status: schedule.userId ? 'open' : 'pending',
      userId: schedule.userId,
      isGroup: contact.isGroup,
    })
    .onConflictDoUpdate({
      target: [tickets.contactId, tickets.whatsappId],
      targetWhere: sql`status <> 'closed'`,
      // Opened meanwhile by an incoming message: write there.
      set: { contactId: sql`excluded.contact_id` },
    })
    .returning({ ...getTableColumns(tickets), inserted: sql<boolean>`(xmax = 0)` });
  const { inserted, ...ticket } = row;
  return { ticket: ticket as TicketRow, created: Boolean(inserted) };
};

// The message gets its own copy of the attachment: deleting the schedule later must not take it away.
const copyMedia = async (
  deps: Deps,
  tx: Db,
  schedule: Pick<ScheduleRow, 'companyId' | 'mediaPath' | 'mediaName'>,
): Promise<OutgoingMedia | null> => {
  if (!schedule.mediaPath) return null;
  const data = await deps.uploads.read(schedule.companyId, schedule.mediaPath);
  if (!data) throw new AppError('ERR_NOT_FOUND', 'The attachment of the schedule is gone');
  const fileName = schedule.mediaName || schedule.mediaPath;
  const mimetype = mimetypeOf(undefined, path.extname(fileName).toLowerCase());
  // Counted in the send's transaction: a copy that does not fit the plan's storage fails the send.
  const stored = await deps.uploads.store(schedule.companyId, data, { fileName, mimetype }, tx);
  return {
    storedName: stored.storedName,
    fileName: stored.originalName,
    mimetype,
    mediaType: mediaTypeOf(mimetype),
  };
};

type Sent = { schedule: ScheduleRow };

// Claims and queues one schedule; undefined when another run (or an edit) got there first.
const sendOne = async (deps: Deps, id: number, now: Date): Promise<Sent | undefined> => {
  // Copied files of a transaction that did not commit are removed again.
  const copied: OutgoingMedia[] = [];
  let companyId = 0;
  try {
    return await deps.events.transaction(deps.db, async (tx, raise) => {
      const [claimed] = await tx
        .update(schedules)
        .set({ status: 'ENVIADA', sentAt: now, updatedAt: now })
        .where(and(eq(schedules.id, id), dueNow(now)))
        .returning();
      if (!claimed) return undefined;
      companyId = claimed.companyId;
      const [contact] = await tx
        .select({ name: contacts.name, isGroup: contacts.isGroup })
        .from(contacts)
        .where(eq(contacts.id, claimed.contactId));
      if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
      const { ticket, created } = await ticketFor(tx, claimed, contact);
      const media = await copyMedia(deps, tx, claimed);
      if (media) copied.push(media);
      const body = fillVariables(claimed.body, {
        contactName: contact.name,
        now,
        timeZone: await companyTimeZone({ db: tx, config: deps.config }, claimed.companyId),
      });
      const queued = await queueOutgoing(tx, ticket, {
        body,
        quotedMsgId: null,
        medias: media ? [media] : [],
      });
      const rows = await tx
        .update(messages)
        .set({ scheduled: true })
        .where(
          inArray(
            messages.id,
            queued.map((m) => m.id),
          ),
        )
        .returning();
      const [schedule] = await tx
        .update(schedules)
        .set({ ticketId: ticket.id, whatsappId: ticket.whatsappId })
        .where(eq(schedules.id, id))
        .returning();
      const sorted = rows.sort((a, b) => a.id - b.id);
      if (created) raise(ticketChanged(null, ticket, null));
      sorted.forEach((row) => raise(messageCreated(row, 'platform')));
      return { schedule };
    });
  } catch (error) {
    await discardMedia(deps.uploads, companyId, copied);
    throw error;
  }
};

// A refusal no retry can fix is recorded on the schedule; anything else is left for the next run.
const markFailed = async (deps: Deps, id: number, now: Date) => {
  const [row] = await deps.db
    .update(schedules)
    .set({ status: 'ERRO', updatedAt: now })
    .where(and(eq(schedules.id, id), isNull(schedules.sentAt), eq(schedules.status, 'PENDENTE')))
    .returning({ companyId: schedules.companyId });
  if (row) await emitSchedule(deps, row.companyId, 'update', id);
};

export const runSchedules = async (deps: Deps, now: Date, log: FastifyBaseLogger) => {
  for (let round = 0; round < 50; round += 1) {
    const due = await deps.db
      .select({ id: schedules.id })
      .from(schedules)
      .where(dueNow(now))
      .orderBy(asc(schedules.sendAt), asc(schedules.id))
      .limit(BATCH);
    let queued = 0;
    for (const { id } of due) {
      let sent: Sent | undefined;
      try {
        sent = await sendOne(deps, id, now);
      } catch (error) {
        if (error instanceof AppError) {
          log.warn({ scheduleId: id, error: error.code }, 'scheduled message not sent');
          await markFailed(deps, id, now);
        } else
          log.error({ err: error, scheduleId: id }, 'scheduled message failed; retried next run');
        continue;
      }
      if (!sent) continue;
      queued += 1;
      try {
        await emitSchedule(deps, sent.schedule.companyId, 'update', sent.schedule.id);
      } catch (err) {
        log.warn({ err, scheduleId: id }, 'sent schedule not announced live');
      }
    }
    if (queued) deps.outbox.kick();
    // Rows left pending after an unexpected failure would come back forever within one run.
    if (due.length < BATCH || queued === 0) return;
  }
};
