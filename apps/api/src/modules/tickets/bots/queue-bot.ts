import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { settingDefaults } from '@atendi/shared';
import type { AppDeps } from '../../../deps';
import type { Db } from '../../../db/client';
import { preparedPer } from '../../../db/prepared';
import {
  companies,
  messages,
  queueOptions,
  queues,
  tickets,
  whatsappQueues,
  whatsapps,
} from '../../../db/schema';
import type { DomainEvent } from '../../../events/domain-events';
import { botTakesTurn, type Ingested } from '../inbound/ingest';
import { getSettingValue } from '../../settings';
import { isOpenAt } from './business-hours';
import { BACK_OPTION, backLine, fillVariables } from './bot-texts';
import { messageCreated, messageRouted } from '../core/ticket-events';
import { writeTransitions } from '../core/ticket-transition';

// The chatbot of a waiting ticket nobody serves (SPEC §3 Whatsapp connection and Queue option, §9):
// 1. Business hours (setting scheduleType): 'company' checks the company's service hours before
//    anything else, 'queue' the ticket's queue once it has one; outside them the contact gets the
//    out-of-hours message (at most once an hour) and the bot stops there.
// 2. Queue: one queue is assigned at once (with the connection's greeting when
//    sendGreetingMessageOneQueues is enabled); several are listed under the connection's greeting
//    and the contact's numeric reply picks one.
// 3. Queue options: a queue with an AI agent hands the conversation to it; one with options lists them; each reply walks the tree (the option's message,
//    then its children), "#" goes back a level; an option without children ends the bot.
// A menu is repeated after an unknown reply at most maxUseBotQueues times (0 = always), and not
// within timeUseBotQueues minutes of the last one; a valid reply is always understood.

type Deps = Pick<AppDeps, 'db' | 'config' | 'ticketMessages' | 'events'>;
type QueueRef = typeof queues.$inferSelect;
type OptionRow = typeof queueOptions.$inferSelect;
type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;
type Connection = typeof whatsapps.$inferSelect;

const OUT_OF_HOURS_REPEAT_MS = 60 * 60 * 1000;

export const queueMenu = <Q extends { name: string }>(greeting: string, choices: Q[]) =>
  [greeting.trim(), choices.map((q, i) => `*${i + 1}* - ${q.name}`).join('\n')]
    .filter(Boolean)
    .join('\n\n');

const optionsMenu = (
  intro: string,
  options: Pick<OptionRow, 'option' | 'title'>[],
  withBack: boolean,
) =>
  [
    intro.trim(),
    [...options.map((o) => `*${o.option}* - ${o.title}`), ...(withBack ? [backLine] : [])].join(
      '\n',
    ),
  ]
    .filter(Boolean)
    .join('\n\n');

// The option a reply names: "2", " 2 ", "2." pick the second queue; anything else picks nothing.
export const chosenIndex = (body: string, count: number) => {
  const match = /^\s*(\d{1,3})\s*[.)]?\s*$/.exec(body);
  if (!match) return undefined;
  const index = Number(match[1]) - 1;
  return index >= 0 && index < count ? index : undefined;
};

const normalise = (value: string) => value.trim().replace(/[.)]$/, '').trim().toLowerCase();

// Prepared, as the connection's row below: the bot reads both for every message of a conversation
// still in its menus.
const connectionQueuesQuery = preparedPer((db) =>
  db
    .select({ queue: queues })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(eq(whatsappQueues.whatsappId, sql.placeholder('whatsappId')))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name))
    .prepare('bot_connection_queues'),
);

const connectionQueues = (db: Db, whatsappId: number): Promise<QueueRef[]> =>
  connectionQueuesQuery(db)
    .execute({ whatsappId })
    .then((rows) => rows.map((row) => row.queue));

// The connection with the company's scheduleType setting (null: the default) and time zone (null: the
// platform's), in one statement.
const connectionQuery = preparedPer((db) =>
  db
    .select({
      connection: whatsapps,
      // Spelled out: in a one-table select the builder leaves column names unqualified.
      scheduleType: sql<string | null>`(select s.value from settings s
        where s.company_id = whatsapps.company_id and s.key = 'scheduleType')`,
      timeZone: sql<string | null>`(select c.time_zone from companies c
        where c.id = whatsapps.company_id)`,
    })
    .from(whatsapps)
    .where(eq(whatsapps.id, sql.placeholder('id')))
    .prepare('bot_connection'),
);

const optionsUnder = async (db: Db, queueId: number, parentId: number | null) =>
  (
    await db
      .select()
      .from(queueOptions)
      .where(
        and(
          eq(queueOptions.queueId, queueId),
          parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
        ),
      )
  ).sort(
    (a, b) =>
      (Number(a.option) || Number.MAX_SAFE_INTEGER) -
        (Number(b.option) || Number.MAX_SAFE_INTEGER) ||
      a.option.localeCompare(b.option) ||
      a.id - b.id,
  );

type Reply = {
  text?: string;
  set: Partial<TicketRow>;
  // The reply is a repeated menu: counted against maxUseBotQueues and timeUseBotQueues.
  repeat?: boolean;
};

const mayRepeatMenu = (connection: Connection, ticket: TicketRow, now: Date) => {
  if (connection.maxUseBotQueues > 0 && ticket.amountUsedBotQueues >= connection.maxUseBotQueues)
    return false;
  if (connection.timeUseBotQueues > 0 && ticket.botAt)
    return now.getTime() - ticket.botAt.getTime() >= connection.timeUseBotQueues * 60_000;
  return true;
};

// A queue closed now that routes its conversations elsewhere (issue 36): to its out-of-hours AI agent,
// or into its out-of-hours queue as if the contact had chosen that one (one hop: a closed queue there
// only says so). `closed` is what the closed queue says; undefined when it routes nowhere.
const routeOutOfHours = async (
  deps: Deps,
  ticket: TicketRow,
  queue: QueueRef,
  closed: Reply,
  context: { scheduleType: string; now: Date; timeZone: string; hop?: boolean },
): Promise<Reply | undefined> => {
  if (ticket.isGroup || context.hop) return undefined;
  if (queue.outOfHoursPromptId)
    return { text: closed.text, set: { ...closed.set, promptId: queue.outOfHoursPromptId } };
  if (!queue.outOfHoursQueueId) return undefined;
  const [target] = await deps.db
    .select()
    .from(queues)
    .where(and(eq(queues.id, queue.outOfHoursQueueId), eq(queues.companyId, ticket.companyId)));
  if (!target) return undefined;
  // Told it is closed, then greeted by the queue that takes it.
  const intro = [closed.text?.trim(), target.greetingMessage.trim()].filter(Boolean).join('\n\n');
  return enterQueue(deps, ticket, target, intro, { ...context, hop: true });
};

// Entering a queue: its out-of-hours notice (or where it routes out of hours), or its options, or the
// end of the bot.
const enterQueue = async (
  deps: Deps,
  ticket: TicketRow,
  queue: QueueRef,
  intro: string,
  context: { scheduleType: string; now: Date; timeZone: string; hop?: boolean },
): Promise<Reply> => {
  const set: Partial<TicketRow> = { queueId: queue.id, queueOptionId: null };
  // A queue with an integration: its flow converses from here on (modules/queue-integrations); one
  // with an AI agent: the agent answers (modules/prompts/agent.ts); not the option menu.
  if (queue.integrationId && !ticket.isGroup)
    return {
      text: intro,
      set: { ...set, chatbot: false, useIntegration: true, integrationId: queue.integrationId },
    };
  if (queue.promptId && !ticket.isGroup)
    return { text: intro, set: { ...set, chatbot: false, promptId: queue.promptId } };
  if (
    context.scheduleType === 'queue' &&
    !isOpenAt(queue.schedules, context.now, context.timeZone)
  ) {
    const closed = {
      text: [intro.trim(), queue.outOfHoursMessage.trim()].filter(Boolean).join('\n\n'),
      set: { ...set, chatbot: false, outOfHoursAt: context.now },
    };
    return (await routeOutOfHours(deps, ticket, queue, closed, context)) ?? closed;
  }
  const top = await optionsUnder(deps.db, queue.id, null);
  if (!top.length) return { text: intro, set: { ...set, chatbot: false } };
  return {
    text: optionsMenu(intro, top, false),
    set: { ...set, chatbot: true, botAt: context.now },
  };
};

// A reply inside a queue's option tree.
const walkOptions = async (
  deps: Deps,
  ticket: TicketRow & { queueId: number },
  queue: QueueRef,
  connection: Connection,
  body: string,
  now: Date,
): Promise<Reply | undefined> => {
  const current = ticket.queueOptionId
    ? (
        await deps.db.select().from(queueOptions).where(eq(queueOptions.id, ticket.queueOptionId))
      )[0]
    : undefined;
  const level = await optionsUnder(deps.db, queue.id, current?.id ?? null);
  if (normalise(body) === BACK_OPTION && current) {
    const parentId = current.parentId ?? null;
    const parentLevel = await optionsUnder(deps.db, queue.id, parentId);
    const parent = parentId
      ? (await deps.db.select().from(queueOptions).where(eq(queueOptions.id, parentId)))[0]
      : undefined;
    return {
      text: optionsMenu(
        parent ? parent.message : queue.greetingMessage,
        parentLevel,
        Boolean(parent),
      ),
      set: { queueOptionId: parent?.id ?? null, botAt: now },
    };
  }
  const picked = level.find((o) => normalise(o.option) === normalise(body));
  if (picked) {
    const children = await optionsUnder(deps.db, queue.id, picked.id);
    if (!children.length)
      return { text: picked.message, set: { queueOptionId: picked.id, chatbot: false } };
    return {
      text: optionsMenu(picked.message, children, true),
      set: { queueOptionId: picked.id, botAt: now },
    };
  }
  if (!level.length) return { set: { chatbot: false } };
  if (!mayRepeatMenu(connection, ticket, now)) return undefined;
  return {
    text: optionsMenu(current ? current.message : queue.greetingMessage, level, Boolean(current)),
    set: { botAt: now },
    repeat: true,
  };
};

const decide = async (
  deps: Deps,
  lookups: Lookups,
  result: Ingested,
  now: Date,
): Promise<Reply | undefined> => {
  const { ticket, message } = result;
  const found = await lookups.connection(ticket.whatsappId);
  if (!found) return undefined;
  const { connection } = found;
  const scheduleType = found.scheduleType ?? settingDefaults.scheduleType;
  const timeZone = found.timeZone ?? deps.config.timeZone;
  // Most messages: a conversation already in its queue, past the bot, with no hours to watch.
  if (ticket.queueId && !ticket.chatbot && scheduleType !== 'company' && scheduleType !== 'queue')
    return undefined;
  const recentlyToldClosed =
    ticket.outOfHoursAt && now.getTime() - ticket.outOfHoursAt.getTime() < OUT_OF_HOURS_REPEAT_MS;

  if (scheduleType === 'company') {
    const [company] = await deps.db
      .select({ schedules: companies.schedules })
      .from(companies)
      .where(eq(companies.id, ticket.companyId));
    if (company && !isOpenAt(company.schedules, now, timeZone)) {
      if (recentlyToldClosed || !connection.outOfHoursMessage.trim()) return undefined;
      return { text: connection.outOfHoursMessage, set: { outOfHoursAt: now } };
    }
  }

  const choices = await lookups.queues(ticket.whatsappId);
  const context = { scheduleType, now, timeZone };

  if (ticket.queueId) {
    const queue =
      choices.find((q) => q.id === ticket.queueId) ??
      (await deps.db.select().from(queues).where(eq(queues.id, ticket.queueId)))[0];
    if (!queue) return undefined;
    if (scheduleType === 'queue' && !isOpenAt(queue.schedules, now, timeZone)) {
      const told = recentlyToldClosed || !queue.outOfHoursMessage.trim();
      const closed = {
        text: told ? undefined : queue.outOfHoursMessage,
        set: { outOfHoursAt: now, chatbot: false },
      };
      const routed = await routeOutOfHours(deps, ticket, queue, closed, context);
      if (routed) return routed;
      return told ? undefined : closed;
    }
    if (!ticket.chatbot) return undefined;
    return walkOptions(
      deps,
      { ...ticket, queueId: ticket.queueId },
      queue,
      connection,
      message.body,
      now,
    );
  }

  if (!choices.length) return undefined;
  if (choices.length === 1) {
    const greet =
      (await getSettingValue(deps.db, ticket.companyId, 'sendGreetingMessageOneQueues')) ===
      'enabled';
    return enterQueue(deps, ticket, choices[0], greet ? connection.greetingMessage : '', context);
  }
  const index = result.ticketCreated ? undefined : chosenIndex(message.body, choices.length);
  if (index !== undefined)
    return enterQueue(deps, ticket, choices[index], choices[index].greetingMessage, context);
  if (!mayRepeatMenu(connection, ticket, now)) return undefined;
  return {
    text: queueMenu(connection.greetingMessage, choices),
    set: { chatbot: true, botAt: now },
    repeat: true,
  };
};

// What the bot reads of a connection, once per batch of messages: its row with the company's
// scheduleType setting, and its queues.
const createLookups = (db: Db) => {
  const connections = new Map<number, ReturnType<typeof readConnection>>();
  const choices = new Map<number, Promise<QueueRef[]>>();
  const readConnection = async (id: number) => {
    const [found] = await connectionQuery(db).execute({ id });
    return found;
  };
  return {
    connection: (id: number) => {
      if (!connections.has(id)) connections.set(id, readConnection(id));
      return connections.get(id)!;
    },
    queues: (whatsappId: number) => {
      if (!choices.has(whatsappId)) choices.set(whatsappId, connectionQueues(db, whatsappId));
      return choices.get(whatsappId)!;
    },
  };
};
type Lookups = ReturnType<typeof createLookups>;

type Planned = { result: Ingested; ticket: TicketRow; reply: Reply; text: string };
type Written = { planned: Planned; still: TicketRow | undefined; written: MessageRow[] };

// Whether the bot answers this message, and what (nothing is written yet).
const plan = async (
  deps: Deps,
  lookups: Lookups,
  result: Ingested,
  now: Date,
): Promise<Planned | undefined> => {
  if (!botTakesTurn(result)) return undefined;
  const { ticket } = result;
  const reply = await decide(deps, lookups, result, now);
  if (!reply) return undefined;
  const zone = (await lookups.connection(ticket.whatsappId))?.timeZone ?? deps.config.timeZone;
  const text = reply.text?.trim()
    ? fillVariables(reply.text, { contactName: result.contact.name, now, timeZone: zone })
    : '';
  if (!text && !Object.keys(reply.set).length) return undefined;
  return { result, ticket, reply, text };
};

// The replies of a round, in the caller's transaction: each only while nobody took its conversation
// meanwhile. A statement per step for the set (the tickets' moves, then the texts: writeTransitions,
// queueTexts), whatever its size.
const writeReplies = async (
  deps: Deps,
  tx: Db,
  raise: (event: DomainEvent) => void,
  batch: Planned[],
): Promise<Written[]> => {
  const moved = await writeTransitions(
    tx,
    raise,
    batch.map(({ result, ticket, reply, text }) => ({
      before: ticket,
      change: reply.set,
      ...(reply.repeat ? { add: { amountUsedBotQueues: 1 } } : {}),
      // The message it answers: the one that picked a queue is the first its flow hears.
      byMessageId: result.message.id,
      // A reply's message.created tells the screens of the ticket too.
      detail: text ? undefined : 'bot',
    })),
    {
      byUserId: null,
      // Still the bot's (botTakesTurn): nobody took it, and no flow or AI agent did meanwhile (a
      // turn decided on an older snapshot of the ticket, or done again, changes nothing).
      still: and(
        isNull(tickets.userId),
        eq(tickets.status, 'pending'),
        eq(tickets.useIntegration, false),
        isNull(tickets.promptId),
      ),
    },
  );
  const texts = batch.flatMap((planned, index) =>
    moved[index] && planned.text ? [{ index, ticket: planned.ticket, body: planned.text }] : [],
  );
  const rows = await deps.ticketMessages.queueTexts(tx, texts);
  rows.forEach((row) => raise(messageCreated(row, 'platform')));
  const writtenAt = new Map(texts.map((text, i) => [text.index, rows[i]]));
  return batch.map((planned, index) => {
    const row = writtenAt.get(index);
    return { planned, still: moved[index], written: row ? [row] : [] };
  });
};

// The bot's turn on the messages of one ingest batch (tickets.engine.ts), in their order: the
// connection's row and queues are read once for the batch; the replies to the batch's k-th message of
// each ticket are decided on the ticket as the reply before left it and written in one transaction
// (each on its own if that fails). The messages that awaited the bot (`held`) are released in their
// round, in the transaction of the round's replies (message.routed), so screens hear each in the
// queue the bot chose and before the bot's reply; each is removed from the set once released.
export const runQueueBots = async (
  deps: Deps,
  results: Ingested[],
  kick: () => void,
  onFailed: (error: unknown) => void,
  held: Set<Ingested> = new Set(),
) => {
  const lookups = createLookups(deps.db);
  const byTicket = new Map<number, Ingested[]>();
  for (const result of results) {
    const line = byTicket.get(result.ticket.id) ?? [];
    line.push(result);
    byTicket.set(result.ticket.id, line);
  }
  const latest = new Map<number, TicketRow>();
  const rounds = Math.max(0, ...[...byTicket.values()].map((line) => line.length));
  for (let round = 0; round < rounds; round += 1) {
    const now = new Date();
    const planned: Planned[] = [];
    for (const line of byTicket.values()) {
      const result = line[round];
      if (!result) continue;
      const ticket = latest.get(result.ticket.id) ?? result.ticket;
      try {
        const next = await plan(deps, lookups, { ...result, ticket }, now);
        if (next) planned.push(next);
      } catch (error) {
        onFailed(error);
      }
    }
    const releasedNow = [...byTicket.values()].flatMap((line) =>
      line[round] && held.has(line[round]) ? [line[round]] : [],
    );
    if (!planned.length && !releasedNow.length) continue;
    const release = (raise: (event: DomainEvent) => void) => {
      for (const result of releasedNow) raise(messageRouted(result.message, result.ticketCreated));
    };
    const writeAll = (batch: Planned[], alsoRelease: boolean) =>
      deps.events.transaction(deps.db, async (tx, raise) => {
        const out = await writeReplies(deps, tx, raise, batch);
        if (alsoRelease) release(raise);
        return out;
      });
    let done: Written[] = [];
    let released = false;
    try {
      done = await writeAll(planned, true);
      released = true;
    } catch (error) {
      // One reply the database refuses does not cost the others theirs.
      if (planned.length <= 1) onFailed(error);
      else
        for (const one of planned)
          done.push(
            ...(await writeAll([one], false).catch((failed: unknown) => {
              onFailed(failed);
              return [];
            })),
          );
    }
    // The replies failed or went one by one: the messages are released on their own.
    if (!released && planned.length && releasedNow.length)
      released = await writeAll([], true).then(
        () => true,
        (error: unknown) => {
          onFailed(error);
          return false;
        },
      );
    if (released) for (const result of releasedNow) held.delete(result);
    for (const { planned: one, still } of done) if (still) latest.set(one.ticket.id, still);
    if (done.some((d) => d.written.length)) kick();
  }
};
