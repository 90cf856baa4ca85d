import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type {
  AiProviderInput,
  AiProviderView,
  PromptInput,
  PromptUpdateInput,
  PromptView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  aiProviders,
  knowledgeDocuments,
  promptKnowledgeDocuments,
  prompts,
  queues,
} from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { ofCompany, ownedRow } from '../../platform/tenancy';
import { updateReturning } from '../../platform/update';
import { assertPlanLimit } from '../plans';
import { clientFor, listModels, providerFailure } from './ai-client';

// SPEC §7 Prompts: the company's AI agents, and the provider they reach.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'config' | 'secrets' | 'outbound'>;
type PromptRow = typeof prompts.$inferSelect;
type QueueRef = { id: number; name: string; color: string };
type DocumentRef = { id: number; name: string };

const serializePrompt = (
  row: PromptRow,
  queue: QueueRef | null,
  documents: DocumentRef[],
): PromptView => ({
  id: row.id,
  name: row.name,
  prompt: row.prompt,
  model: row.model,
  maxTokens: row.maxTokens,
  temperature: row.temperature,
  maxMessages: row.maxMessages,
  handoffMessage: row.handoffMessage,
  queueId: row.queueId,
  queue: queue && row.queueId ? queue : null,
  knowledge: row.knowledge,
  knowledgeDocuments: documents,
  lastError:
    row.lastErrorCode && row.lastErrorAt
      ? {
          code: row.lastErrorCode,
          message: row.lastErrorMessage ?? '',
          at: row.lastErrorAt.toISOString(),
        }
      : null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

// The knowledge documents each agent answers from, by agent.
const documentsOf = async (db: Db, promptIds: number[]) => {
  const rows = promptIds.length
    ? await db
        .select({
          promptId: promptKnowledgeDocuments.promptId,
          id: knowledgeDocuments.id,
          name: knowledgeDocuments.name,
        })
        .from(promptKnowledgeDocuments)
        .innerJoin(
          knowledgeDocuments,
          eq(knowledgeDocuments.id, promptKnowledgeDocuments.documentId),
        )
        .where(inArray(promptKnowledgeDocuments.promptId, promptIds))
        .orderBy(asc(knowledgeDocuments.name), asc(knowledgeDocuments.id))
    : [];
  const byPrompt = new Map<number, DocumentRef[]>();
  for (const { promptId, ...document } of rows)
    byPrompt.set(promptId, [...(byPrompt.get(promptId) ?? []), document]);
  return byPrompt;
};

const selectViews = async (db: Db, where: ReturnType<typeof and>) => {
  const rows = await db
    .select({ prompt: prompts, queue: { id: queues.id, name: queues.name, color: queues.color } })
    .from(prompts)
    .leftJoin(queues, eq(queues.id, prompts.queueId))
    .where(where)
    .orderBy(asc(prompts.name), asc(prompts.id));
  const documents = await documentsOf(
    db,
    rows.map((r) => r.prompt.id),
  );
  return rows.map((r) =>
    serializePrompt(r.prompt, r.queue?.id ? r.queue : null, documents.get(r.prompt.id) ?? []),
  );
};

// The documents an agent is given must be the company's (another company's are not told apart from
// missing ones).
const assertDocuments = async (db: Db, ctx: AuthContext, ids: number[] | undefined) => {
  const wanted = [...new Set(ids ?? [])];
  if (!wanted.length) return;
  const found = await db
    .select({ id: knowledgeDocuments.id })
    .from(knowledgeDocuments)
    .where(ofCompany(knowledgeDocuments, ctx, inArray(knowledgeDocuments.id, wanted)));
  if (found.length !== wanted.length)
    throw new AppError('ERR_VALIDATION', 'No such knowledge document', {
      fields: { knowledgeDocumentIds: ['ERR_NOT_FOUND'] },
    });
};

// Replaces the agent's documents in the caller's transaction.
const setDocuments = async (tx: Db, promptId: number, ids: number[]) => {
  await tx.delete(promptKnowledgeDocuments).where(eq(promptKnowledgeDocuments.promptId, promptId));
  const unique = [...new Set(ids)];
  if (unique.length)
    await tx
      .insert(promptKnowledgeDocuments)
      .values(unique.map((documentId) => ({ promptId, documentId })))
      .onConflictDoNothing();
};

export const listPrompts = async (db: Db, ctx: AuthContext) => {
  const views = await selectViews(db, ofCompany(prompts, ctx));
  return { prompts: views, count: views.length };
};

export const findPromptRow = async (db: Db, ctx: Pick<AuthContext, 'companyId'>, id: number) => {
  const [row] = await db
    .select()
    .from(prompts)
    .where(ownedRow(prompts, id, ctx));
  if (!row) throw new AppError('ERR_NO_PROMPT_FOUND', 'No such AI agent');
  return row;
};

const viewOf = async (db: Db, ctx: Pick<AuthContext, 'companyId'>, id: number) => {
  const [view] = await selectViews(db, ownedRow(prompts, id, ctx));
  if (!view) throw new AppError('ERR_NO_PROMPT_FOUND', 'No such AI agent');
  return view;
};

export const getPrompt = (db: Db, ctx: AuthContext, id: number) => viewOf(db, ctx, id);

const assertQueue = async (db: Db, ctx: AuthContext, queueId: number | null | undefined) => {
  if (!queueId) return;
  const [queue] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(ownedRow(queues, queueId, ctx));
  if (!queue)
    throw new AppError('ERR_VALIDATION', 'No such queue', {
      fields: { queueId: ['ERR_NO_QUEUE_FOUND'] },
    });
};

const emitPrompt = (
  deps: Pick<AppDeps, 'realtime'>,
  companyId: number,
  payload:
    { action: 'create' | 'update'; prompt: PromptView } | { action: 'delete'; promptId: number },
) => deps.realtime.toCompany(companyId).emit('prompt', payload);

// SPEC §9: one agent more than the plan's aiAgents is refused (403 ERR_PLAN_LIMIT_AI_AGENTS).
export const createPrompt = async (deps: Deps, ctx: AuthContext, input: PromptInput) => {
  await assertQueue(deps.db, ctx, input.queueId);
  await assertDocuments(deps.db, ctx, input.knowledgeDocumentIds);
  const row = await deps.db.transaction(async (tx) => {
    await assertPlanLimit(tx, ctx.companyId, 'aiAgents');
    const [inserted] = await tx
      .insert(prompts)
      .values({
        companyId: ctx.companyId,
        name: input.name,
        prompt: input.prompt,
        model: input.model,
        maxTokens: input.maxTokens,
        temperature: input.temperature,
        maxMessages: input.maxMessages,
        handoffMessage: input.handoffMessage,
        queueId: input.queueId,
        knowledge: input.knowledge,
      })
      .returning();
    await setDocuments(tx, inserted.id, input.knowledgeDocumentIds);
    return inserted;
  });
  const view = await viewOf(deps.db, ctx, row.id);
  emitPrompt(deps, ctx.companyId, { action: 'create', prompt: view });
  return view;
};

export const updatePrompt = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: PromptUpdateInput,
) => {
  await findPromptRow(deps.db, ctx, id);
  await assertQueue(deps.db, ctx, input.queueId);
  await assertDocuments(deps.db, ctx, input.knowledgeDocumentIds);
  const { knowledgeDocumentIds, ...columns } = input;
  const [row] = await deps.db.transaction(async (tx) => {
    const updated = await updateReturning(tx, prompts, columns, ownedRow(prompts, id, ctx));
    if (updated.length && knowledgeDocumentIds) await setDocuments(tx, id, knowledgeDocumentIds);
    return updated;
  });
  if (!row) throw new AppError('ERR_NO_PROMPT_FOUND', 'No such AI agent');
  const view = await viewOf(deps.db, ctx, id);
  emitPrompt(deps, ctx.companyId, { action: 'update', prompt: view });
  return view;
};

// Conversations it was answering go on without it (tickets.prompt_id is set null), their messages
// keep their text; connections and queues that named it name none.
export const deletePrompt = async (deps: Deps, ctx: AuthContext, id: number) => {
  await findPromptRow(deps.db, ctx, id);
  await deps.db.delete(prompts).where(ownedRow(prompts, id, ctx));
  emitPrompt(deps, ctx.companyId, { action: 'delete', promptId: id });
  return { message: 'Prompt deleted' };
};

// What went wrong the last time the agent could not answer a customer (null clears it).
export const recordPromptError = async (
  deps: Deps,
  companyId: number,
  promptId: number,
  error: { code: string; message: string } | null,
) => {
  const [row] = await deps.db
    .update(prompts)
    .set(
      error
        ? { lastErrorCode: error.code, lastErrorMessage: error.message, lastErrorAt: new Date() }
        : { lastErrorCode: null, lastErrorMessage: null, lastErrorAt: null },
    )
    .where(and(eq(prompts.id, promptId), eq(prompts.companyId, companyId)))
    .returning({ id: prompts.id });
  if (!row) return;
  const view = await viewOf(deps.db, { companyId }, promptId);
  emitPrompt(deps, companyId, { action: 'update', prompt: view });
};

// --- The company's provider ---

export const getAiProvider = async (deps: Deps, ctx: AuthContext): Promise<AiProviderView> => {
  const [row] = await deps.db
    .select()
    .from(aiProviders)
    .where(eq(aiProviders.companyId, ctx.companyId));
  return {
    baseUrl: row?.baseUrl ?? null,
    keySet: Boolean(row?.apiKeySealed),
    platformDefault: Boolean(deps.config.openAi.apiKey || deps.config.openAi.baseUrl),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
};

export const saveAiProvider = async (deps: Deps, ctx: AuthContext, input: AiProviderInput) => {
  if (input.baseUrl) await deps.outbound.check(input.baseUrl, 'baseUrl');
  const set: Partial<typeof aiProviders.$inferInsert> = {};
  if (input.baseUrl !== undefined)
    set.baseUrl = input.baseUrl ? input.baseUrl.replace(/\/+$/, '') : null;
  if (input.apiKey !== undefined)
    set.apiKeySealed = input.apiKey ? deps.secrets.seal(input.apiKey) : null;
  await deps.db
    .insert(aiProviders)
    .values({ companyId: ctx.companyId, ...set })
    .onConflictDoUpdate({ target: aiProviders.companyId, set: { ...set, updatedAt: sql`now()` } });
  return getAiProvider(deps, ctx);
};

// The models of the saved provider, or (a "test connection") of what the form holds unsaved.
export const providerModels = async (deps: Deps, ctx: AuthContext, draft?: AiProviderInput) => {
  const client = await clientFor(deps, ctx.companyId, draft);
  try {
    return { models: await listModels(client) };
  } catch (error) {
    throw providerFailure(error);
  }
};
