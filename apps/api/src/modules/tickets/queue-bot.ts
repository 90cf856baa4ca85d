import { asc, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app';
import { queues, tickets, whatsappQueues, whatsapps } from '../../db/schema';
import type { Ingested } from './ingest';
import { getSettingValue } from '../settings/settings.service';
import { queueOutgoing } from '../messages/messages.service';
import { emitMessages } from '../messages/message-views';
import { announce } from './tickets.service';
import { loadTicketViews } from './ticket-views';

// Queue routing (SPEC §3 Whatsapp connection, §9 settings): a waiting ticket without a queue gets one.
// One queue: it is assigned at once (with the connection's greeting when
// sendGreetingMessageOneQueues is enabled). Several: the greeting lists them and the contact's
// numeric reply picks one; the list is sent at most maxUseBotQueues times.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
type QueueRef = { id: number; name: string; greetingMessage: string };

export const queueMenu = (greeting: string, choices: QueueRef[]) =>
  [greeting.trim(), choices.map((q, i) => `*${i + 1}* - ${q.name}`).join('\n')]
    .filter(Boolean)
    .join('\n\n');

// The option a reply names: "2", " 2 ", "2." pick the second queue; anything else picks nothing.
export const chosenIndex = (body: string, count: number) => {
  const match = /^\s*(\d{1,3})\s*[.)]?\s*$/.exec(body);
  if (!match) return undefined;
  const index = Number(match[1]) - 1;
  return index >= 0 && index < count ? index : undefined;
};

const connectionQueues = (deps: Deps, whatsappId: number): Promise<QueueRef[]> =>
  deps.db
    .select({ id: queues.id, name: queues.name, greetingMessage: queues.greetingMessage })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(eq(whatsappQueues.whatsappId, whatsappId))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name));

export const runQueueBot = async (deps: Deps, result: Ingested, kick: () => void) => {
  const { ticket, message } = result;
  if (message.fromMe || ticket.isGroup || ticket.status !== 'pending') return;
  if (ticket.queueId || ticket.userId) return;
  const choices = await connectionQueues(deps, ticket.whatsappId);
  if (!choices.length) return;
  const [connection] = await deps.db
    .select()
    .from(whatsapps)
    .where(eq(whatsapps.id, ticket.whatsappId));
  if (!connection) return;

  const reply: { queueId?: number; text?: string; countMenu?: boolean } = {};
  if (choices.length === 1) {
    reply.queueId = choices[0].id;
    const greet =
      (await getSettingValue(deps.db, ticket.companyId, 'sendGreetingMessageOneQueues')) ===
      'enabled';
    if (greet && connection.greetingMessage.trim()) reply.text = connection.greetingMessage;
  } else {
    const index = result.ticketCreated ? undefined : chosenIndex(message.body, choices.length);
    if (index !== undefined) {
      reply.queueId = choices[index].id;
      if (choices[index].greetingMessage.trim()) reply.text = choices[index].greetingMessage;
    } else if (
      connection.maxUseBotQueues <= 0 ||
      ticket.amountUsedBotQueues < connection.maxUseBotQueues
    ) {
      reply.text = queueMenu(connection.greetingMessage, choices);
      reply.countMenu = true;
    }
  }
  if (!reply.text && reply.queueId === undefined) return;

  const sent = await deps.db.transaction(async (tx) => {
    await tx
      .update(tickets)
      .set({
        ...(reply.queueId !== undefined
          ? { queueId: reply.queueId, chatbot: false }
          : { chatbot: true }),
        ...(reply.countMenu
          ? { amountUsedBotQueues: sql`${tickets.amountUsedBotQueues} + 1` }
          : {}),
      })
      .where(eq(tickets.id, ticket.id));
    return reply.text
      ? queueOutgoing(tx, ticket, { body: reply.text, quotedMsgId: null, medias: [] })
      : [];
  });
  const [view] = await loadTicketViews(deps.db, [ticket.id]);
  if (view) announce(deps, ticket.companyId, ticket, view);
  if (sent.length) {
    await emitMessages(deps, ticket.companyId, 'create', sent);
    kick();
  }
};
