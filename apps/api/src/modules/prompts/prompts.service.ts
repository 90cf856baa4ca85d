import { and, asc, eq, sql } from 'drizzle-orm';
import type {
  AiProviderInput,
  AiProviderView,
  PromptInput,
  PromptUpdateInput,
  PromptView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { aiProviders, prompts, queues } from '../../db/schema';
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

const serializePrompt = (row: PromptRow, queue: QueueRef | null): PromptView => ({
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

const selectViews = (db: Db, where: ReturnType<typeof and>) =>
  db
    .select({ prompt: prompts, queue: { id: queues.id, name: queues.name, color: queues.color } })
    .from(prompts)
    .leftJoin(queues, eq(queues.id, prompts.queueId))
    .where(where)
    .orderBy(asc(prompts.name), asc(prompts.id))
    .then((rows) => rows.map((r) => serializePrompt(r.prompt, r.queue?.id ? r.queue : null)));

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
      })
      .returning();
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
  const [row] = await updateReturning(deps.db, prompts, input, ownedRow(prompts, id, ctx));
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
