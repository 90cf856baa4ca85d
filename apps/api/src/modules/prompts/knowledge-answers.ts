import { eq } from 'drizzle-orm';
import type { KnowledgePassage } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { promptKnowledgeDocuments, type prompts } from '../../db/schema';
import type { ChatTurn } from './ai-client';

// Issue 40, item 2: an AI agent that answers from the company's knowledge base. Before each turn the
// contact's newest words are searched (hybrid retrieval, modules/knowledge through the KnowledgeSearch
// port) among the agent's documents (all the company's, or those selected); the relevant passages go
// into the system prompt, numbered, with the rule to cite them as [n] and to hand the conversation to
// a person rather than answer from anything else. The answer's [n] marks are taken out of what the
// contact reads and become the note that cites document and passage on the ticket. With nothing
// relevant found the model is told so: it may greet or thank, and hands over anything else.

type PromptRow = typeof prompts.$inferSelect;

// Passages given to the model per turn.
const PASSAGES_PER_TURN = 4;
// A passage found only by meaning must be at least this similar to the question to count (cosine of
// the embeddings). Passages sharing a word with the question always count: the fusion already ranks
// them, and the model is told to use only what answers.
const MIN_SIMILARITY = 0.35;
// What is searched: the contact's newest words, and the message before them when those are short
// ("¿y el envío?" means little alone).
const QUESTION_CHARS = 1000;
const SHORT_QUESTION = 40;

export type NumberedPassage = KnowledgePassage & { number: number };

// The question a turn searches: the contact's messages after the last answer (their text), or the
// latest one when nothing is new (the sandbox).
export const questionOf = (turns: ChatTurn[]) => {
  const contact = turns.filter((turn) => turn.role === 'user').map((turn) => turn.content);
  let lastAnswer = -1;
  turns.forEach((turn, i) => {
    if (turn.role === 'assistant') lastAnswer = i;
  });
  const fresh = turns.slice(lastAnswer + 1).filter((turn) => turn.role === 'user');
  const words = fresh.length ? fresh.map((turn) => turn.content) : contact.slice(-1);
  let question = words.join('\n');
  if (question.length < SHORT_QUESTION && contact.length > words.length)
    question = `${contact[contact.length - words.length - 1]}\n${question}`;
  return question.slice(-QUESTION_CHARS).trim();
};

const documentIdsOf = async (db: Db, promptId: number) =>
  (
    await db
      .select({ id: promptKnowledgeDocuments.documentId })
      .from(promptKnowledgeDocuments)
      .where(eq(promptKnowledgeDocuments.promptId, promptId))
  ).map((row) => row.id);

// The agent's passages for this question that count as relevant, numbered from 1.
export const relevantPassages = async (
  deps: Pick<AppDeps, 'db' | 'knowledge'>,
  prompt: Pick<PromptRow, 'id' | 'companyId' | 'knowledge'>,
  question: string,
): Promise<NumberedPassage[]> => {
  if (!question || prompt.knowledge === 'none') return [];
  const documentIds =
    prompt.knowledge === 'selected' ? await documentIdsOf(deps.db, prompt.id) : undefined;
  // Its documents all deleted: nothing to read (never the whole base instead).
  if (documentIds && !documentIds.length) return [];
  const { passages } = await deps.knowledge.search(prompt.companyId, question, {
    limit: PASSAGES_PER_TURN,
    documentIds,
  });
  return passages
    .filter((p) => p.textScore !== null || (p.similarity ?? 0) >= MIN_SIMILARITY)
    .map((p, i) => ({ ...p, number: i + 1 }));
};

const whereIs = (p: KnowledgePassage) =>
  [p.documentName, p.page !== null ? `p. ${p.page}` : null].filter(Boolean).join(', ');

// What the system prompt adds for the turn.
export const knowledgeInstructions = (passages: NumberedPassage[], handoffTool: string) =>
  passages.length
    ? [
        'Passages of the company’s knowledge base that may answer the customer:',
        ...passages.map((p) => `[${p.number}] (${whereIs(p)})\n${p.text}`),
        'Answer questions about the company, its products, prices and policies only with what these ' +
          'passages say, in the customer’s language, and cite each passage you use with its number in ' +
          `brackets, e.g. [1]. If they do not answer the question, do not guess: call ${handoffTool}.`,
      ].join('\n\n')
    : 'The company’s knowledge base has nothing relevant to the customer’s latest messages. You may ' +
      'answer a greeting or thanks; for any question about the company, its products, prices or ' +
      `policies, do not answer from your own knowledge: call ${handoffTool}.`;

// The answer as the contact reads it (no [n] marks) and the passages it cited.
export const citationsIn = (text: string, passages: NumberedPassage[]) => {
  const byNumber = new Map(passages.map((p) => [p.number, p]));
  const cited = new Set<number>();
  const clean = text
    .replace(/\s*\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/g, (mark, numbers: string) => {
      const known = numbers.split(',').map((n) => Number(n.trim()));
      if (!known.every((n) => byNumber.has(n))) return mark;
      known.forEach((n) => cited.add(n));
      return '';
    })
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .trim();
  return { text: clean, cited: passages.filter((p) => cited.has(p.number)) };
};

// The ticket's note that cites what an answer used (Spanish, like every bot note): the passages it
// cited, or those it was given when it cited none.
export const citationNote = (cited: NumberedPassage[], given: NumberedPassage[]) =>
  [
    cited.length
      ? 'Respondió con la base de conocimiento:'
      : 'Respondió con estos fragmentos de la base de conocimiento a la vista (sin citarlos):',
    ...(cited.length ? cited : given).map(
      (p) =>
        `[${p.number}] ${p.documentName}${p.page !== null ? `, pág. ${p.page}` : ''}, fragmento ${
          p.ordinal + 1
        }: «${p.text.length > 160 ? `${p.text.slice(0, 157).trimEnd()}…` : p.text}»`,
    ),
  ].join('\n');

export const NOTHING_FOUND_NOTE = 'No encontró información relevante en la base de conocimiento.';
