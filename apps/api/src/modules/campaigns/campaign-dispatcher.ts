import { companyTimeZone } from '../../platform/time-zones';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, asc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  confirmationFields,
  conversationsAllowed,
  filledSlots,
  messageFields,
  pauseAfterMessage,
  warmUpCap,
  type CampaignHoldReason,
  type CampaignSettings,
} from '@atendi/shared';
import type { AppDeps, CampaignAnswers } from '../../deps';
import { queryRows, type Db } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import {
  campaignOptOuts,
  campaigns,
  campaignShipping,
  contacts,
  fileListOptions,
  messages,
  messageTemplates,
  tickets,
  whatsapps,
} from '../../db/schema';
import { ChannelError, type OutgoingMedia, type SendRequest } from '../../channels/driver';
import type { EventOf } from '../../events/domain-events';
import type { ChannelEventInput } from '../../channels/manager';
import {
  enqueueJobs,
  enqueueJobsFrom,
  jobQueue,
  type Job,
  type JobOutcome,
  type Jobs,
  type QueueOptions,
} from '../../jobs/queue';
import { mediaTypeOf, mimetypeOf } from '../messages';
import { fillVariables, messageCreated, previewOf } from '../tickets';
import { needsHeaderFile, templateSendOf, type TemplateRow } from '../templates';
import {
  announceCampaign,
  campaignSettingsFor,
  type CampaignRow,
  type EnsureDispatch,
} from './campaigns.service';

// Sends campaigns, on the one durable job queue. Each running campaign has one
// `campaign.dispatch` job (ref campaign:{id}, so never two); a run of it is a step: the first plans the
// recipients (one set-based INSERT … SELECT), then each step sends the next recipients and answers
// when the job is due again (the interval, or the longer pause after every N messages), so pacing
// survives restarts and a cancel is seen before the next message.
//
// Crash safety: a recipient is claimed (status sending) before its message is handed to WhatsApp and
// marked delivered, with the provider's id, after. A step that finds a claimed recipient knows the run
// before it died in between: Baileys and the simulator get the same idempotency key again, which makes
// the repeat the same WhatsApp message (delivered once); the Cloud API has no such key, so there the
// recipient is marked failed as uncertain rather than messaged twice.

export const DISPATCH_QUEUE = 'campaign.dispatch';
export const dispatchQueue = jobQueue(DISPATCH_QUEUE, z.object({ campaignId: z.number().int() }));
// The recurring look for campaigns whose time came.
export const CAMPAIGNS_JOB = 'campaigns';

type DispatchJob = z.infer<typeof dispatchQueue.payload>;

type Deps = Pick<
  AppDeps,
  'db' | 'realtime' | 'uploads' | 'jobs' | 'config' | 'channels' | 'metrics' | 'events'
>;
type ShippingRow = typeof campaignShipping.$inferSelect;
type Connection = { id: number; provider: string };

// One step sends for at most this long (or this many messages) before handing the job back, so a
// campaign without pauses still lets other work of the queue run, and a cancel is seen.
const STEP_BUDGET_MS = 2000;
const STEP_MAX_MESSAGES = 200;
// Screens hear a running campaign's progress at most this often (and at every pause and end).
const ANNOUNCE_EVERY_MS = 1000;

const refOf = (campaignId: number) => `campaign:${campaignId}`;
const DAY_MS = 24 * 3600_000;

type LimitedConnection = Connection & { cloudMessagingLimit: string | null; createdAt: Date };

// What a number may start in 24 hours (issue 39), and what the campaign waits for past it: on the
// Cloud API the messaging limit tier Meta gave it (the lowest until Meta said); on Baileys the
// company's daily cap, lower for a number linked in the last days (warm-up: 20 the first day,
// doubling each day). The simulator stands for the demo and the tests: no limit.
export const numberLimit = (
  connection: Pick<LimitedConnection, 'provider' | 'cloudMessagingLimit' | 'createdAt'>,
  settings: Pick<CampaignSettings, 'dailyCap' | 'warmUp'>,
  now: Date,
): { allowed: number; reason: CampaignHoldReason } => {
  if (connection.provider === 'cloud')
    return { allowed: conversationsAllowed(connection.cloudMessagingLimit), reason: 'tier' };
  if (connection.provider !== 'beta')
    return { allowed: Number.POSITIVE_INFINITY, reason: 'daily_cap' };
  const cap = settings.dailyCap > 0 ? settings.dailyCap : Number.POSITIVE_INFINITY;
  const warm = settings.warmUp
    ? warmUpCap((now.getTime() - connection.createdAt.getTime()) / DAY_MS)
    : Number.POSITIVE_INFINITY;
  return warm < cap ? { allowed: warm, reason: 'warm_up' } : { allowed: cap, reason: 'daily_cap' };
};

// A wait varied at random between half and one and a half times (Baileys' randomised pacing), so a
// number's messages do not go out like a machine's.
export const paced = (ms: number, random: boolean, roll = Math.random) =>
  random && ms > 0 ? Math.round(ms * (0.5 + roll())) : ms;

// The campaign's dispatch job, unless one is already waiting; one running runs once more when it ends
// (it may have looked for recipients before the caller's change: a confirmation, a resume).
export const ensureDispatch: EnsureDispatch = async (tx, campaign) => {
  await enqueueJobs(
    tx,
    dispatchQueue,
    [
      {
        payload: { campaignId: campaign.id },
        ref: refOf(campaign.id),
        companyId: campaign.companyId,
      },
    ],
    { againIfRunning: true },
  );
};

// What the campaigns routes start: the look for due campaigns now, and the dispatch workers.
export const dispatchControls = (jobs: Pick<Jobs, 'run' | 'kick'>) => ({
  // Saved or restarted with its time come: start it now rather than at the next look.
  startDue: () => void jobs.run(CAMPAIGNS_JOB),
  kick: () => jobs.kick(DISPATCH_QUEUE),
});

// The number's own words, so ' stop!' and 'Stop' are the same answer.
const optOutWord = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toUpperCase();

// The tickets engine's question after an ingest (deps.campaignAnswers): which of the stored contact
// messages opted their sender out (recorded by recordAnswers in the ingest's transaction, so a
// redelivered message, never stored twice, is never confirmed twice), each with the company's
// confirmation text ('' when it sends none).
export const campaignAnswers: CampaignAnswers = {
  async optOutConfirmations(db, messageIds) {
    const confirmations = new Map<number, string>();
    if (!messageIds.length) return confirmations;
    const optOuts = await db
      .select({ messageId: campaignOptOuts.messageId, companyId: campaignOptOuts.companyId })
      .from(campaignOptOuts)
      .where(inArray(campaignOptOuts.messageId, messageIds));
    const texts = new Map<number, string>();
    for (const { messageId, companyId } of optOuts) {
      if (messageId === null) continue;
      if (!texts.has(companyId))
        texts.set(companyId, (await campaignSettingsFor(db, companyId)).optOutMessage);
      confirmations.set(messageId, texts.get(companyId)!);
    }
    return confirmations;
  },
};

export const createCampaignDispatcher = (deps: Deps, log: FastifyBaseLogger) => {
  const { db, config } = deps;
  const announcedAt = new Map<number, number>();

  const announce = async (campaign: Pick<CampaignRow, 'id' | 'companyId'>, force = true) => {
    const last = announcedAt.get(campaign.id) ?? 0;
    if (!force && Date.now() - last < ANNOUNCE_EVERY_MS) return;
    announcedAt.set(campaign.id, Date.now());
    await announceCampaign(deps, campaign.companyId, campaign.id);
  };

  // Campaigns whose time came start (PROGRAMADA → EM_ANDAMENTO, conditional, so once), each with its
  // dispatch job in the same transaction. A running campaign that lost its job (a restart racing its
  // last step) gets one again here.
  const startDue = async (now: Date) => {
    const started = await deps.events.transaction(db, async (tx, raise) => {
      const rows = await tx
        .update(campaigns)
        .set({ status: 'EM_ANDAMENTO', updatedAt: now })
        .where(and(eq(campaigns.status, 'PROGRAMADA'), lte(campaigns.scheduledAt, now)))
        .returning({ id: campaigns.id, companyId: campaigns.companyId });
      for (const row of rows) {
        await ensureDispatch(tx, row);
        raise({
          type: 'campaign.status',
          companyId: row.companyId,
          campaignId: row.id,
          before: 'PROGRAMADA',
          after: 'EM_ANDAMENTO',
        });
      }
      // Those with a job waiting or running are left out (skipLiveRefs).
      await enqueueJobsFrom(
        tx,
        dispatchQueue,
        {
          from: sql`from campaigns c
            where c.status = 'EM_ANDAMENTO'
               or (c.status = 'FINALIZADA' and exists (
                 select 1 from campaign_shipping s
                 where s.campaign_id = c.id and s.status in ('pending', 'sending')
                   and s.confirmed_at is not null))`,
          payload: sql`jsonb_build_object('campaignId', c.id)`,
          ref: sql`'campaign:' || c.id`,
          companyId: sql`c.company_id`,
        },
        { skipLiveRefs: true },
      );
      return rows;
    });
    if (started.length) deps.jobs.kick(DISPATCH_QUEUE);
    for (const row of started) await announce(row);
  };

  // One shipment row per recipient: the list's numbers WhatsApp did not refuse and the numbers of the
  // contacts carrying the tag, each once, in list order, with its message slot drawn at random among
  // the filled ones. Numbers that opted out are planned as such (the report counts them).
  const plan = async (campaign: CampaignRow) =>
    db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(campaigns)
        .set({ startedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(campaigns.id, campaign.id), isNull(campaigns.startedAt)))
        .returning();
      if (!claimed) return;
      const pick = (slots: number[]) =>
        slots.length
          ? sql`(array[${sql.raw(slots.join(','))}]::int[])[1 + floor(random() * ${slots.length})::int]`
          : sql`null::int`;
      const slots = filledSlots(claimed, messageFields);
      const confirmationSlots = claimed.confirmation
        ? filledSlots(claimed, confirmationFields)
        : [];
      const companyId = claimed.companyId;
      const fromList =
        claimed.contactListId === null
          ? null
          : sql`select i.number, i.name, 0 as src, i.id as ord
                from contact_list_items i
                where i.contact_list_id = ${claimed.contactListId} and i.company_id = ${companyId}
                  and i.is_whatsapp_valid is not false`;
      const fromTag =
        claimed.tagListId === null
          ? null
          : sql`select c.number, c.name, 1 as src, c.id as ord
                from contacts c
                where c.company_id = ${companyId} and not c.is_group and c.number ~ '^[0-9]+$'
                  and exists (
                    select 1 from ticket_tags tt join tickets t on t.id = tt.ticket_id
                    where tt.tag_id = ${claimed.tagListId} and t.contact_id = c.id)`;
      const sources = [fromList, fromTag].filter((part) => part !== null);
      if (!sources.length) return;
      await tx.execute(sql`
        insert into campaign_shipping
          (company_id, campaign_id, contact_id, number, name, status, variant, confirmation_variant,
           confirmation)
        select ${companyId}, ${claimed.id}, ct.id, r.number, r.name,
               case when o.id is null then 'pending' else 'opted_out' end,
               ${pick(slots)}, ${pick(confirmationSlots)}, ${claimed.confirmation}
        from (
          select distinct on (a.number) a.number, a.name, a.src, a.ord
          from (${sql.join(sources, sql` union all `)}) a
          order by a.number, a.src, a.ord
        ) r
        left join contacts ct on ct.company_id = ${companyId} and ct.number = r.number
        left join campaign_opt_outs o on o.company_id = ${companyId} and o.number = r.number
        order by r.src, r.ord
        on conflict (campaign_id, number) do nothing`);
    });

  // The recipient a run before this one claimed and never settled (it died), if any.
  const unsettled = async (campaignId: number) =>
    (
      await db
        .select()
        .from(campaignShipping)
        .where(
          and(eq(campaignShipping.campaignId, campaignId), eq(campaignShipping.status, 'sending')),
        )
        .orderBy(asc(campaignShipping.id))
        .limit(1)
    )[0];

  // Claims the next recipient, in the same statement that checks the campaign still runs (a
  // finished campaign only sends the messages its recipients confirmed since).
  const claim = async (campaignId: number) =>
    (
      await db
        .update(campaignShipping)
        .set({ status: 'sending', updatedAt: new Date() })
        .where(
          eq(
            campaignShipping.id,
            sql`(
              select s.id from campaign_shipping s join campaigns c on c.id = s.campaign_id
              where s.campaign_id = ${campaignId} and s.status = 'pending'
                and (c.status = 'EM_ANDAMENTO'
                     or (c.status = 'FINALIZADA' and s.confirmed_at is not null))
              order by s.id limit 1
              for update of s skip locked)`,
          ),
        )
        .returning()
    )[0];

  const settle = (shipping: ShippingRow, values: Partial<typeof campaignShipping.$inferInsert>) =>
    db
      .update(campaignShipping)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(campaignShipping.id, shipping.id), eq(campaignShipping.status, 'sending')));

  const fileListMedia = async (campaign: CampaignRow) => {
    if (campaign.fileListId === null) return [];
    const options = await db
      .select()
      .from(fileListOptions)
      .where(
        and(
          eq(fileListOptions.fileListId, campaign.fileListId),
          eq(fileListOptions.companyId, campaign.companyId),
        ),
      )
      .orderBy(asc(fileListOptions.id));
    return options.filter((option) => option.path);
  };

  // A stored file to send; one that is gone fails the recipient (no retry can bring it back).
  const mediaOf = async (
    companyId: number,
    storedName: string,
    name: string,
    declared?: string,
  ): Promise<OutgoingMedia> => {
    if (!(await deps.uploads.exists(companyId, storedName)))
      throw new ChannelError(
        'ERR_SENDING_WAPP_MSG',
        `The file ${name || storedName} is no longer stored`,
      );
    const mimetype = mimetypeOf(declared, path.extname(storedName).toLowerCase());
    return { storedName, fileName: name || storedName, mimetype, mediaType: mediaTypeOf(mimetype) };
  };

  const textOf = (campaign: CampaignRow, shipping: ShippingRow, confirming: boolean) => {
    const fields = confirming ? confirmationFields : messageFields;
    const chosen = confirming ? shipping.confirmationVariant : shipping.variant;
    const slot = chosen ?? filledSlots(campaign, fields)[0] ?? 1;
    return { slot, text: campaign[fields[slot - 1]!] ?? '' };
  };

  // A recipient already in a conversation on the connection sees the campaign's message (or its
  // confirmation request) there at once; the others' are written in when they answer
  // (intoConversation). After the recipient's row is settled, in a transaction of its own: it waits
  // for no conversation's lock while holding the recipient's, and a failure here sends nothing again.
  const intoOpenConversation = async (
    connection: Connection,
    shipping: ShippingRow,
    sent: { providerId: string; body: string; ack: number; at: Date },
  ) => {
    if (!sent.body.trim()) return;
    try {
      await deps.events.transaction(db, async (tx, raise) => {
        const [open] = await tx
          .select({ id: tickets.id })
          .from(tickets)
          .innerJoin(contacts, eq(contacts.id, tickets.contactId))
          .where(
            and(
              eq(contacts.companyId, shipping.companyId),
              eq(contacts.number, shipping.number),
              eq(tickets.whatsappId, connection.id),
              ne(tickets.status, 'closed'),
            ),
          )
          .limit(1);
        if (!open) return;
        const [stored] = await tx
          .insert(messages)
          .values({
            companyId: shipping.companyId,
            providerId: sent.providerId,
            ticketId: open.id,
            whatsappId: connection.id,
            body: sent.body,
            fromMe: true,
            read: true,
            ack: sent.ack,
            remoteJid: shipping.number,
            createdAt: sent.at,
          })
          .onConflictDoNothing({ target: [messages.whatsappId, messages.providerId] })
          .returning();
        if (!stored) return;
        const [bumped] = await tx
          .update(tickets)
          .set({ lastMessage: previewOf(stored).slice(0, 500), updatedAt: new Date() })
          .where(eq(tickets.id, open.id))
          .returning();
        raise(messageCreated(stored, 'platform', null, bumped));
      });
    } catch (err) {
      log.warn(
        { err, shippingId: shipping.id },
        'campaign message not written into its conversation',
      );
    }
  };

  // Sent (with the campaign's count of messages sent so far, which paces it), or skipped.
  type Delivery = { sent: number } | 'skipped';

  // Sends one recipient's message(s): the confirmation request, or the message, its attachment and
  // the file list's files, each with its own idempotency key.
  const deliver = async (
    campaign: CampaignRow,
    connection: Connection | undefined,
    shipping: ShippingRow,
    settings: CampaignSettings,
    template: TemplateRow | undefined,
    timeZone: string,
  ): Promise<Delivery> => {
    const [optedOut] = await db
      .select({ id: campaignOptOuts.id })
      .from(campaignOptOuts)
      .where(
        and(
          eq(campaignOptOuts.companyId, campaign.companyId),
          eq(campaignOptOuts.number, shipping.number),
        ),
      );
    if (optedOut) {
      await settle(shipping, { status: 'opted_out' });
      return 'skipped';
    }
    if (!connection) {
      await settle(shipping, {
        status: 'failed',
        error: 'ERR_NO_WAPP_FOUND: the campaign has no connection to send through',
      });
      return 'skipped';
    }
    const confirming = campaign.confirmation && shipping.confirmedAt === null;
    const fill = (text: string) =>
      fillVariables(text, {
        contactName: shipping.name || shipping.number,
        number: shipping.number,
        now: new Date(),
        timeZone,
        extra: settings.variables,
      });
    // On the Cloud API the first message a recipient gets opens the conversation: the template (the
    // message, or with confirmation the request); the message after a confirmation goes free-form,
    // the recipient having just written.
    const opening = template && (confirming || !campaign.confirmation) ? template : undefined;
    // The attachment is the template's header file (Cloud API), not a file sent on its own.
    const headerFile = template !== undefined && needsHeaderFile(template);
    const { slot, text } = textOf(campaign, shipping, confirming);
    const templated = opening ? templateSendOf(opening, campaign.templateParams, fill) : undefined;
    const body = templated?.text ?? fill(text);
    const base = `campaign:${shipping.id}${confirming ? ':confirmation' : ''}`;
    let providerId: string | undefined;
    // How far the first message already got (WhatsApp's later reports raise it: recordAck).
    let ack: number | undefined;
    try {
      const sends: SendRequest[] = [];
      if (templated && opening) {
        // A file header is the campaign's attachment; nothing else may follow before an answer.
        let headerMedia: OutgoingMedia | undefined;
        if (headerFile) {
          if (!campaign.mediaPath)
            throw new ChannelError(
              'ERR_SENDING_WAPP_MSG',
              `The template ${opening.name} shows a file in its header: attach one to the campaign`,
            );
          headerMedia = await mediaOf(
            campaign.companyId,
            campaign.mediaPath,
            campaign.mediaName ?? '',
          );
        }
        sends.push({
          to: shipping.number,
          body,
          idempotencyKey: base,
          template: { ...templated.send, ...(headerMedia ? { headerMedia } : {}) },
        });
      } else {
        sends.push({ to: shipping.number, body, idempotencyKey: base });
        if (!confirming) {
          // A file header of the confirmation request was the attachment already.
          if (campaign.mediaPath && !headerFile)
            sends.push({
              to: shipping.number,
              body: '',
              idempotencyKey: `${base}:media`,
              media: await mediaOf(
                campaign.companyId,
                campaign.mediaPath,
                campaign.mediaName ?? '',
              ),
            });
          for (const file of await fileListMedia(campaign))
            sends.push({
              to: shipping.number,
              body: '',
              idempotencyKey: `${base}:file:${file.id}`,
              media: await mediaOf(campaign.companyId, file.path, file.name, file.mediaType),
            });
        }
      }
      for (const request of sends) {
        const result = await deps.channels.send(connection.id, request);
        if (providerId === undefined) {
          providerId = result.providerId;
          ack = result.ack ?? 1;
        }
      }
    } catch (error) {
      // The number has no WhatsApp, the provider refused this message (or, Cloud API, a free-form
      // one outside the contact's 24-hour window), or a file is gone: this recipient failed.
      if (
        error instanceof ChannelError &&
        (error.code === 'ERR_WAPP_INVALID_CONTACT' ||
          error.code === 'ERR_SENDING_WAPP_MSG' ||
          error.code === 'ERR_WAPP_WINDOW_CLOSED')
      ) {
        await settle(shipping, {
          status: 'failed',
          error: `${error.code}: ${error.message}`.slice(0, 500),
        });
        deps.metrics.campaignSends.inc({ outcome: 'failed' });
        return 'skipped';
      }
      // The session is down (or anything else): the recipient waits, the job retries later.
      await db
        .update(campaignShipping)
        .set({ status: 'pending', updatedAt: new Date() })
        .where(and(eq(campaignShipping.id, shipping.id), eq(campaignShipping.status, 'sending')));
      throw error;
    }
    const now = new Date();
    deps.metrics.campaignSends.inc({ outcome: 'sent' });
    const delivered = await db.transaction(async (tx) => {
      await tx
        .update(campaignShipping)
        .set(
          confirming
            ? {
                status: 'confirmation',
                confirmationVariant: slot,
                confirmationRequestedAt: now,
                confirmationMessage: body,
                confirmationProviderId: providerId,
                providerId,
                ack: ack ?? 1,
                error: null,
                updatedAt: now,
              }
            : {
                status: 'delivered',
                variant: slot,
                message: body,
                deliveredAt: now,
                providerId,
                ack: ack ?? 1,
                error: null,
                updatedAt: now,
              },
        )
        .where(and(eq(campaignShipping.id, shipping.id), eq(campaignShipping.status, 'sending')));
      const [counted] = await tx
        .update(campaigns)
        .set({ sentCount: sql`${campaigns.sentCount} + 1` })
        .where(eq(campaigns.id, campaign.id))
        .returning({ sentCount: campaigns.sentCount });
      return { sent: counted?.sentCount ?? 1 };
    });
    if (providerId !== undefined)
      await intoOpenConversation(connection, shipping, {
        providerId,
        body,
        ack: ack ?? 1,
        at: now,
      });
    return delivered;
  };

  // No recipient left to send: a running campaign is finished (FINALIZADA, completedAt). Answers
  // whether this call finished it; either way the screens hear how it stands.
  const finishIfDone = async (campaign: CampaignRow) => {
    const finished = await deps.events.transaction(db, async (tx, raise) => {
      const rows = await queryRows<{ id: number; company_id: number }>(
        tx,
        sql`update campaigns set status = 'FINALIZADA', completed_at = now(), updated_at = now()
            where id = ${campaign.id} and status = 'EM_ANDAMENTO'
              and not exists (
                select 1 from campaign_shipping s
                where s.campaign_id = ${campaign.id} and s.status in ('pending', 'sending'))
            returning id, company_id`,
      );
      for (const row of rows)
        raise({
          type: 'campaign.status',
          companyId: row.company_id,
          campaignId: row.id,
          before: 'EM_ANDAMENTO',
          after: 'FINALIZADA',
        });
      return rows;
    });
    announcedAt.delete(campaign.id);
    await announce(campaign);
    return finished.length > 0;
  };

  // How many more recipients the campaign's number may get now; none, and until when, once its
  // limit is reached. Counted as Meta counts the conversations a business starts: one per recipient
  // in a rolling 24 hours, over every campaign of the number.
  const numberAllowance = async (
    connection: LimitedConnection,
    settings: CampaignSettings,
    now: Date,
  ): Promise<{ left: number; hold?: { reason: CampaignHoldReason; until: Date } }> => {
    const limit = numberLimit(connection, settings, now);
    if (!Number.isFinite(limit.allowed)) return { left: Number.POSITIVE_INFINITY };
    const since = new Date(now.getTime() - DAY_MS).toISOString();
    const recent = sql`select s.number, max(greatest(s.delivered_at, s.confirmation_requested_at)) as at
          from campaign_shipping s join campaigns c on c.id = s.campaign_id
          where c.whatsapp_id = ${connection.id}
            and (s.delivered_at > ${since}::timestamptz
                 or s.confirmation_requested_at > ${since}::timestamptz)
          group by s.number`;
    const [{ used }] = await queryRows<{ used: number }>(
      db,
      sql`select count(*)::int as used from (${recent}) r`,
    );
    if (used < limit.allowed) return { left: limit.allowed - used };
    // Sends again when enough of those conversations have left the window.
    const [oldest] = await queryRows<{ at: string | Date }>(
      db,
      sql`select r.at from (${recent}) r order by r.at asc offset ${used - limit.allowed} limit 1`,
    );
    const until = new Date(new Date(oldest?.at ?? now).getTime() + DAY_MS);
    return { left: 0, hold: { reason: limit.reason, until } };
  };

  // The campaign waits for its number's limit: the screens say why and until when.
  const hold = async (
    campaign: CampaignRow,
    held: { reason: CampaignHoldReason; until: Date },
  ): Promise<JobOutcome> => {
    await db
      .update(campaigns)
      .set({ heldReason: held.reason, heldUntil: held.until, updatedAt: new Date() })
      .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, 'EM_ANDAMENTO')));
    await announce(campaign);
    return { againInMs: Math.max(1000, held.until.getTime() - Date.now()) };
  };
  const release = async (campaign: CampaignRow) => {
    await db
      .update(campaigns)
      .set({ heldReason: null, heldUntil: null, updatedAt: new Date() })
      .where(eq(campaigns.id, campaign.id));
    await announce(campaign);
  };

  const step = async (job: Job<DispatchJob>): Promise<JobOutcome> => {
    const load = async () =>
      (await db.select().from(campaigns).where(eq(campaigns.id, job.payload.campaignId)))[0];
    let campaign = await load();
    if (!campaign) return;
    if (campaign.status === 'EM_ANDAMENTO' && !campaign.startedAt) {
      await plan(campaign);
      campaign = await load();
      if (!campaign) return;
      await announce(campaign);
    }
    if (campaign.status !== 'EM_ANDAMENTO' && campaign.status !== 'FINALIZADA') {
      await announce(campaign);
      return;
    }
    const settings = await campaignSettingsFor(db, campaign.companyId);
    const timeZone = await companyTimeZone(deps, campaign.companyId);
    const [connection] = campaign.whatsappId
      ? await db
          .select({
            id: whatsapps.id,
            provider: whatsapps.provider,
            cloudMessagingLimit: whatsapps.cloudMessagingLimit,
            createdAt: whatsapps.createdAt,
          })
          .from(whatsapps)
          .where(eq(whatsapps.id, campaign.whatsappId))
      : [];
    // Templates are the Cloud API's; a campaign moved to another provider sends its messages.
    const [template] =
      campaign.templateId !== null && connection?.provider === 'cloud'
        ? await db
            .select()
            .from(messageTemplates)
            .where(eq(messageTemplates.id, campaign.templateId))
        : [];
    // The Cloud API takes a number's messages at a set rate (Meta's default 80 a second).
    const minGapMs = connection?.provider === 'cloud' ? 1000 / config.cloudApiMessagesPerSecond : 0;
    const until = Date.now() + STEP_BUDGET_MS;
    let shipping: ShippingRow | undefined = await unsettled(campaign.id);
    if (shipping && connection?.provider === 'cloud') {
      await settle(shipping, {
        status: 'failed',
        error:
          'ERR_SEND_UNCERTAIN: the sender stopped while WhatsApp was answering; not sent again so the contact does not get it twice',
      });
      shipping = undefined;
    }
    // The number's limit: no recipient past it (a claimed one left by a dead run is already counted
    // against it, or failed above).
    const allowance = connection
      ? await numberAllowance(connection, settings, new Date())
      : { left: Number.POSITIVE_INFINITY };
    if (allowance.left <= 0 && !shipping && allowance.hold) {
      if (await finishIfDone(campaign)) return;
      return hold(campaign, allowance.hold);
    }
    if (campaign.heldReason) await release(campaign);
    let left = allowance.left;
    for (let handled = 0; ; handled += 1) {
      shipping ??= await claim(campaign.id);
      if (!shipping) {
        await finishIfDone(campaign);
        return;
      }
      const delivery = await deliver(campaign, connection, shipping, settings, template, timeZone);
      shipping = undefined;
      if (delivery !== 'skipped') {
        left -= 1;
        // The limit reached: the next step holds the campaign (or finds it finished).
        if (left <= 0) {
          if (await finishIfDone(campaign)) return;
          return { againInMs: 0 };
        }
        const pauseMs = paced(
          pauseAfterMessage(delivery.sent, settings) * 1000,
          connection?.provider === 'beta' && settings.randomPacing,
        );
        if (pauseMs > 0) {
          // The last recipient: finished now, not one interval later (announced either way).
          if (await finishIfDone(campaign)) return;
          return { againInMs: pauseMs };
        }
        if (minGapMs) await sleep(minGapMs);
      }
      if (Date.now() >= until || handled + 1 >= STEP_MAX_MESSAGES) {
        await announce(campaign, false);
        return { againInMs: 0 };
      }
    }
  };

  const worker: QueueOptions<DispatchJob> = {
    handle: step,
    // A connection that is down holds the campaign back, retried every minute at most, for days.
    maxAttempts: 10_000,
    retryDelayMs: (attempts) => Math.min(5000 * 2 ** Math.max(0, attempts - 1), 60_000),
    intervalMs: 1000,
    batchSize: 5,
    keepDoneMs: 24 * 3600_000,
    keepFailedMs: 7 * 24 * 3600_000,
  };

  // The messages that come from a recipient of their company's campaigns, with the recipient's
  // number. Prepared: it runs for every batch of messages contacts send.
  const answersQuery = preparedPer((db) =>
    db
      .select({
        messageId: messages.id,
        companyId: messages.companyId,
        body: messages.body,
        number: contacts.number,
        ticketId: tickets.id,
        whatsappId: tickets.whatsappId,
      })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(
        and(
          sql`${messages.id} = any(${sql.placeholder('messageIds')}::int[])`,
          sql`exists (select 1 from ${campaignShipping} s
                      where s.company_id = ${messages.companyId} and s.number = ${contacts.number})`,
        ),
      )
      .orderBy(messages.id)
      .prepare('campaign_answers'),
  );

  // A recipient's answer, recorded in the transaction that stores it: an opt-out word opts the number
  // out of the company's campaigns (its recipients still waiting are skipped); any other answer to a
  // confirmation request sends the campaign's message.
  const recordAnswers = async (tx: Db, events: EventOf<'message.created'>[]) => {
    const fromContacts = events.filter((event) => event.author === 'contact');
    if (!fromContacts.length) return;
    const answers = await answersQuery(tx).execute({
      messageIds: fromContacts.map((event) => event.messageId),
    });
    let touched = 0;
    for (const found of answers) {
      await intoConversation(tx, found);
      touched += await answer(tx, found);
    }
    // Woken after the commit (a kick now would look before the answers are there).
    return touched ? DISPATCH_QUEUE : undefined;
  };

  // The campaign messages the number got on the ticket's connection (the confirmation request and the
  // message, as sent), written into the conversation the answer landed in, at the time they were
  // sent, so the agent reads what the contact answers. Once: a message already stored under its
  // WhatsApp id (recorded when sent into an open conversation, or by an earlier answer) is left.
  const intoConversation = (
    tx: Db,
    found: { companyId: number; number: string; ticketId: number; whatsappId: number },
  ) =>
    tx.execute(sql`
      insert into messages
        (company_id, provider_id, ticket_id, whatsapp_id, body, from_me, media_type, read, ack,
         remote_jid, created_at, updated_at)
      select s.company_id, sent.provider_id, ${found.ticketId}, c.whatsapp_id, sent.body, true, 'chat',
             true, sent.ack, s.number, sent.at, now()
      from campaign_shipping s
      join campaigns c on c.id = s.campaign_id
      cross join lateral (values
        -- The request was answered (it reached the phone) unless it is still the latest message.
        (s.confirmation_provider_id, s.confirmation_message, s.confirmation_requested_at,
         case when s.provider_id = s.confirmation_provider_id then s.ack else 3 end),
        (case when s.status = 'delivered' then s.provider_id end, s.message, s.delivered_at, s.ack)
      ) as sent (provider_id, body, at, ack)
      where s.company_id = ${found.companyId} and s.number = ${found.number}
        and c.whatsapp_id = ${found.whatsappId}
        and sent.provider_id is not null and sent.at is not null and sent.body <> ''
      on conflict (whatsapp_id, provider_id) do nothing`);

  const answer = async (
    tx: Db,
    found: { messageId: number; companyId: number; body: string; number: string },
  ) => {
    const settings = await campaignSettingsFor(tx, found.companyId);
    const word = optOutWord(found.body);
    const optsOut = word !== '' && settings.optOutKeywords.some((k) => optOutWord(k) === word);
    const touched = optsOut
      ? await optOut(tx, found, word)
      : await tx
          .update(campaignShipping)
          .set({ status: 'pending', confirmedAt: new Date(), updatedAt: new Date() })
          .where(
            and(
              eq(campaignShipping.companyId, found.companyId),
              eq(campaignShipping.number, found.number),
              eq(campaignShipping.status, 'confirmation'),
            ),
          )
          .returning({ id: campaignShipping.campaignId, companyId: campaignShipping.companyId });
    for (const campaign of new Map(touched.map((c) => [c.id, c])).values())
      await ensureDispatch(tx, campaign);
    return touched.length;
  };

  // The number opts out of the company's campaigns: its recipients still waiting are skipped, and the
  // campaign it answered (the one that messaged it last) counts it as opted out.
  // The answer is remembered as the number's latest opt-out (messageId): the tickets engine confirms
  // it to them instead of the queue bot answering it (optOutConfirmations); AI agents' and
  // integrations' turns skip it.
  const optOut = async (
    tx: Db,
    { companyId, number, messageId }: { companyId: number; number: string; messageId: number },
    keyword: string,
  ) => {
    const now = new Date();
    const ofNumber = and(
      eq(campaignShipping.companyId, companyId),
      eq(campaignShipping.number, number),
    );
    const [answered] = await tx
      .select({ id: campaignShipping.id, campaignId: campaignShipping.campaignId })
      .from(campaignShipping)
      .where(ofNumber)
      .orderBy(
        sql`coalesce(${campaignShipping.deliveredAt}, ${campaignShipping.confirmationRequestedAt}) desc nulls last`,
        sql`${campaignShipping.id} desc`,
      )
      .limit(1);
    const skipped = await tx
      .update(campaignShipping)
      .set({ status: 'opted_out', updatedAt: now })
      .where(and(ofNumber, inArray(campaignShipping.status, ['pending', 'confirmation'])))
      .returning({ id: campaignShipping.campaignId, companyId: campaignShipping.companyId });
    if (answered)
      await tx
        .update(campaignShipping)
        .set({
          optedOutAt: sql`coalesce(${campaignShipping.optedOutAt}, ${now.toISOString()}::timestamptz)`,
          updatedAt: now,
        })
        .where(eq(campaignShipping.id, answered.id));
    await tx
      .insert(campaignOptOuts)
      .values({ companyId, number, keyword, campaignId: answered?.campaignId ?? null, messageId })
      .onConflictDoUpdate({
        target: [campaignOptOuts.companyId, campaignOptOuts.number],
        set: { messageId, updatedAt: now },
      });
    log.info({ companyId, campaignId: answered?.campaignId }, 'campaign recipient opted out');
    return answered ? [...skipped, { id: answered.campaignId, companyId }] : skipped;
  };

  // Campaigns whose report changed with WhatsApp's reports: told to the screens once a second at most
  // (the last change included).
  const ackAnnouncements = new Map<number, NodeJS.Timeout>();
  const announceSoon = (campaign: { id: number; companyId: number }) => {
    if (ackAnnouncements.has(campaign.id)) return;
    const timer = setTimeout(() => {
      ackAnnouncements.delete(campaign.id);
      announce(campaign).catch((err: unknown) =>
        log.warn({ err, campaignId: campaign.id }, 'campaign report not announced'),
      );
    }, ANNOUNCE_EVERY_MS);
    timer.unref();
    ackAnnouncements.set(campaign.id, timer);
  };

  // WhatsApp reports how far a message got (a channel's ack event): a campaign's message moves its
  // recipient from sent to delivered to read. A high-water mark, as messages' acks (a failure report
  // after WhatsApp took the message changes nothing here: the recipient stays sent).
  const recordAck = async ({ connection, event }: ChannelEventInput) => {
    if (event.type !== 'ack' || event.ack <= 0) return;
    try {
      const moved = await queryRows<{ campaign_id: number; company_id: number }>(
        db,
        sql`update campaign_shipping s set ack = ${event.ack}, updated_at = now()
            from campaigns c
            where s.provider_id = ${event.providerId} and s.company_id = ${connection.companyId}
              and c.id = s.campaign_id and c.whatsapp_id = ${connection.id} and s.ack < ${event.ack}
            returning s.campaign_id, s.company_id`,
      );
      for (const row of moved) announceSoon({ id: row.campaign_id, companyId: row.company_id });
    } catch (err) {
      log.warn({ err, providerId: event.providerId }, 'campaign delivery report not recorded');
    }
  };

  return {
    // The dispatch queue's worker (a step per run).
    worker,
    // The recurring look for campaigns whose time came (CAMPAIGNS_JOB).
    startDue,
    // The recorder of recipients' answers (message.created, all of a transaction's at once).
    recordAnswers,
    // The channels' listener of WhatsApp's delivery reports on campaign messages.
    recordAck,
  };
};
