import { and, desc, eq } from 'drizzle-orm';
import type OpenAI from 'openai';
import type { ReplySuggestion, TicketNoteView } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import type { DomainEvent } from '../../events/domain-events';
import { companies, messages, prompts, tickets, users } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { consume } from '../../platform/rate-limit';
import { searchKnowledge } from '../knowledge';
import {
  assertTokensLeft,
  clientFor,
  lengthAndTemperature,
  contentOf,
  meterAi,
  planAllowsAi,
  providerFailure,
  usageOf,
} from '../prompts';
import { addBotNote, visibleTicketRow } from '../tickets';

// Issue 40, the agents' co-pilot: the model helps the people who answer conversations.
// - A reply suggestion (POST /tickets/{id}/suggestion) drafts the agent's next message from the
//   conversation's newest messages and the company's knowledge base, in the language the customer
//   writes in. It is only answered: the agent edits it in the composer and sends it (or not) as any
//   message of theirs; nothing is stored or sent here.
// - A summary (POST /tickets/{id}/summary, and summaries.ts when a conversation changes hands) is a
//   ticket note signed "Resumen IA" (a bot's note, like the AI agents' hand-over notes: the model
//   wrote it, not the person who asked for it), in Spanish as every note the platform writes, unless
//   the conversation is clearly in another language.
// Both use the company's provider (clientFor) with OPENAI_COPILOT_MODEL, need a plan with useOpenAi,
// are refused once the plan's tokens of the month are spent, and count their tokens under their
// feature ('suggestion', 'summary').

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound'>;
type MessageRow = typeof messages.$inferSelect;
type TicketRow = typeof tickets.$inferSelect;

// The newest messages a suggestion is drafted from, and a summary written from.
const SUGGESTION_MESSAGES = 20;
export const SUMMARY_MESSAGES = 60;
// Knowledge base passages given to the model with a suggestion.
const SUGGESTION_PASSAGES = 4;
// The contact's newest messages that make the knowledge base question.
const QUESTION_MESSAGES = 3;

const SUMMARY_NOTE_AUTHOR = 'Resumen IA';

// Super users pass the route's plan check; the ticket's company still needs AI in its plan.
const assertAiAllowed = async (db: Db, companyId: number) => {
  if (!(await planAllowsAi(db, companyId)))
    throw new AppError('ERR_PLAN_FEATURE_DISABLED', 'The company’s plan has no AI');
};

// The conversation's newest `count` messages, oldest first, without deleted ones.
export const conversationOf = async (db: Db, ticketId: number, count: number) =>
  (
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.isDeleted, false)))
      .orderBy(desc(messages.id))
      .limit(count)
  ).reverse();

// The conversation as one text, a line per message with who wrote it (each message as the AI agents
// read it: media named by kind, a voice note with its transcript).
const conversationText = (window: MessageRow[], agentNames: Map<number, string>) =>
  window
    .map((m) => {
      const content = contentOf(m);
      if (!content) return '';
      const who = !m.fromMe
        ? 'Cliente'
        : m.promptId
          ? `Agente IA (${agentNames.get(m.promptId) ?? 'bot'})`
          : 'Agente';
      return `${who}: ${content.replace(/\s*\n\s*/g, ' ')}`;
    })
    .filter(Boolean)
    .join('\n');

const agentNamesOf = async (db: Db, window: MessageRow[]) => {
  const ids = [...new Set(window.flatMap((m) => (m.promptId ? [m.promptId] : [])))];
  if (!ids.length) return new Map<number, string>();
  const rows = await db
    .select({ id: prompts.id, name: prompts.name })
    .from(prompts)
    .where(eq(prompts.companyId, window[0]!.companyId));
  return new Map(rows.filter((r) => ids.includes(r.id)).map((r) => [r.id, r.name]));
};

// What the contact asked last: their messages since the agent last wrote (at most a few), else their
// newest ones. Media without text say nothing to search for.
const questionOf = (window: MessageRow[]) => {
  const lastOurs = window.map((m) => m.fromMe).lastIndexOf(true);
  const since = window.slice(lastOurs + 1).filter((m) => !m.fromMe);
  const asked = (since.length ? since : window.filter((m) => !m.fromMe)).slice(-QUESTION_MESSAGES);
  return asked
    .map((m) => [m.body.trim(), m.transcript?.trim()].filter(Boolean).join(' '))
    .filter(Boolean)
    .join('\n');
};

// One chat completion of the co-pilot's model; its tokens counted under `feature` once it answered.
// The provider's failures come back as the API tells them.
const ask = async (
  deps: Deps,
  companyId: number,
  feature: 'suggestion' | 'summary',
  system: string,
  user: string,
  options: { maxTokens: number; temperature: number },
) => {
  const model = deps.config.openAi.copilotModel;
  let completion: OpenAI.ChatCompletion;
  try {
    await assertTokensLeft(deps, companyId);
    const client = await clientFor(deps, companyId);
    completion = await client.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      ...lengthAndTemperature(model, options.maxTokens, options.temperature),
    });
  } catch (error) {
    throw providerFailure(error);
  }
  await meterAi(deps, companyId, feature, usageOf(completion.usage));
  const text = (completion.choices[0]?.message?.content ?? '').trim();
  if (!text) throw new AppError('ERR_AI_PROVIDER_REQUEST', 'The AI provider answered with no text');
  return text;
};

const SUGGESTION_INSTRUCTIONS = [
  'You help a customer service agent of a company answer a customer on WhatsApp.',
  'Write the next message the agent (not an AI agent) should send to the customer: short, friendly,',
  'useful, as a person writes on WhatsApp, without a greeting if the conversation already started.',
  'Write it in the language the customer writes in.',
  'Use the knowledge base passages when they answer the customer; never invent prices, dates,',
  'policies or data that neither the passages nor the conversation give: say the agent will check.',
  'Start your answer with the customer’s language as an ISO 639-1 code in square brackets (for',
  'example [es] or [en]), then the message alone, with no quotes and no explanation.',
].join(' ');

const LANGUAGE_TAG = /^\s*\[([a-z]{2,3}(?:-[a-z]{2,4})?)\]\s*/i;

// The draft and its language, from the model's "[es] texto…" (a model that left the code out still
// gives a draft, its language unknown).
const draftOf = (answer: string) => {
  const tag = LANGUAGE_TAG.exec(answer);
  if (!tag) return { text: answer, language: null };
  return { text: answer.slice(tag[0].length).trim(), language: tag[1]!.toLowerCase() };
};

const rateLimited = (deps: Pick<AppDeps, 'limits'>, ctx: AuthContext) =>
  consume(deps.limits.copilot, `user:${ctx.userId}`, 'Too many AI requests: wait a moment');

const needsConversation = (window: MessageRow[]) => {
  if (!window.some((m) => contentOf(m)))
    throw new AppError('ERR_AI_NO_CONVERSATION', 'The conversation has no messages yet');
};

export const suggestReply = async (
  deps: Deps & Pick<AppDeps, 'limits'>,
  ctx: AuthContext,
  ticketId: number,
): Promise<ReplySuggestion> => {
  const ticket = await visibleTicketRow(deps.db, ctx, ticketId);
  await assertAiAllowed(deps.db, ticket.companyId);
  await rateLimited(deps, ctx);
  const window = await conversationOf(deps.db, ticket.id, SUGGESTION_MESSAGES);
  needsConversation(window);
  const [company] = await deps.db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, ticket.companyId));
  const [me] = await deps.db
    .select({ name: users.name })
    .from(users)
    .where(eq(users.id, ctx.userId));
  const question = questionOf(window);
  // An empty knowledge base (or a question of media alone) drafts from the conversation alone.
  const { passages } = question
    ? await searchKnowledge(deps, ticket.companyId, question, { limit: SUGGESTION_PASSAGES })
    : { passages: [] };
  const knowledge = passages.length
    ? passages
        .map(
          (p, i) =>
            `[${i + 1}] ${p.documentName}${p.page ? ` (p. ${p.page})` : ''}:\n${p.text.trim()}`,
        )
        .join('\n\n')
    : '(none)';
  const user = [
    `Company: ${company?.name ?? ''}. The agent: ${me?.name ?? ''}.`,
    `Knowledge base passages:\n${knowledge}`,
    `Conversation (oldest first):\n${conversationText(window, await agentNamesOf(deps.db, window))}`,
    'Write the agent’s next message.',
  ].join('\n\n');
  const answer = await ask(deps, ticket.companyId, 'suggestion', SUGGESTION_INSTRUCTIONS, user, {
    maxTokens: 500,
    temperature: 0.4,
  });
  return {
    ...draftOf(answer),
    passages: passages.map((p) => ({
      documentId: p.documentId,
      documentName: p.documentName,
      page: p.page,
      ordinal: p.ordinal,
      text: p.text,
    })),
  };
};

const SUMMARY_INSTRUCTIONS = [
  'Resume la conversación de atención al cliente por WhatsApp para el agente que la toma ahora.',
  'Entre 3 y 6 líneas breves: quién es el cliente si se sabe, qué pide o qué problema tiene, qué se',
  'hizo o respondió ya y qué queda pendiente.',
  'Escribe en español, salvo que toda la conversación esté claramente en otro idioma: entonces en',
  'ese idioma.',
  'Solo el resumen, sin título ni comentarios; no inventes nada que la conversación no diga.',
].join(' ');

// The summary of a conversation (its newest SUMMARY_MESSAGES messages), as the model wrote it.
export const summaryOf = async (deps: Deps, companyId: number, window: MessageRow[]) =>
  ask(
    deps,
    companyId,
    'summary',
    SUMMARY_INSTRUCTIONS,
    `Conversación (de la más antigua a la más reciente):\n${conversationText(
      window,
      await agentNamesOf(deps.db, window),
    )}`,
    { maxTokens: 400, temperature: 0.2 },
  );

// Writes the summary as the ticket's note signed SUMMARY_NOTE_AUTHOR, and answers it as the notes
// list shows it.
export const writeSummaryNote = async (
  tx: Db,
  raise: (event: DomainEvent) => void,
  ticket: Pick<TicketRow, 'id' | 'companyId' | 'contactId'>,
  summary: string,
): Promise<TicketNoteView> => {
  const [note] = await addBotNote(tx, raise, ticket, SUMMARY_NOTE_AUTHOR, summary).returning();
  return {
    id: note!.id,
    note: note!.note,
    ticketId: note!.ticketId,
    contactId: note!.contactId,
    userId: null,
    user: null,
    botName: note!.botName,
    createdAt: note!.createdAt.toISOString(),
    updatedAt: note!.updatedAt.toISOString(),
  };
};

export const summariseTicket = async (
  deps: Deps & Pick<AppDeps, 'limits' | 'events'>,
  ctx: AuthContext,
  ticketId: number,
) => {
  const ticket = await visibleTicketRow(deps.db, ctx, ticketId);
  await assertAiAllowed(deps.db, ticket.companyId);
  await rateLimited(deps, ctx);
  const window = await conversationOf(deps.db, ticket.id, SUMMARY_MESSAGES);
  needsConversation(window);
  const summary = await summaryOf(deps, ticket.companyId, window);
  // Colleagues with the contact's details open read the notes again.
  return deps.events.transaction(deps.db, (tx, raise) =>
    writeSummaryNote(tx, raise, ticket, summary),
  );
};
