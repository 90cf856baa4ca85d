import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  defaultSchedules,
  type QueueInput,
  type QueueOptionInput,
  type QueueUpdateInput,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { prompts, queueIntegrations, queueOptions, queues } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { foreignReferences, foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { assertPlanLimit } from '../plans';
import { updateReturning } from '../../platform/update';
import { routeSoon } from '../routing';

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'jobs'>;
type QueueRow = typeof queues.$inferSelect;
type OptionRow = typeof queueOptions.$inferSelect;

const serializeQueue = (queue: QueueRow) => ({
  id: queue.id,
  name: queue.name,
  color: queue.color,
  greetingMessage: queue.greetingMessage,
  outOfHoursMessage: queue.outOfHoursMessage,
  completion: queue.completion,
  ratingMessage: queue.ratingMessage,
  token: queue.token,
  orderQueue: queue.orderQueue,
  promptId: queue.promptId,
  integrationId: queue.integrationId,
  routing: queue.routing,
  reassignMinutes: queue.reassignMinutes,
  outOfHoursQueueId: queue.outOfHoursQueueId,
  outOfHoursPromptId: queue.outOfHoursPromptId,
  slaFirstResponseMinutes: queue.slaFirstResponseMinutes,
  slaNextResponseMinutes: queue.slaNextResponseMinutes,
  slaResolutionMinutes: queue.slaResolutionMinutes,
  slaWarningMinutes: queue.slaWarningMinutes,
  schedules: queue.schedules,
  createdAt: queue.createdAt,
  updatedAt: queue.updatedAt,
});

// Colours are compared as '#rrggbb'-style lower-case text, so '#FF0000' and 'ff0000' are the same colour.
const normalizeColor = (color: string) =>
  (color.startsWith('#') ? color : `#${color}`).toLowerCase();

export const listQueues = async (db: Db, ctx: AuthContext) =>
  (
    await db
      .select()
      .from(queues)
      .where(ofCompany(queues, ctx))
      .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name))
  ).map(serializeQueue);

const findQueue = async (db: Db, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(queues)
        .where(ownedRow(queues, id, ctx))
    )[0],
    'ERR_NO_QUEUE_FOUND',
  );

export const getQueue = async (db: Db, ctx: AuthContext, id: number) =>
  serializeQueue(await findQueue(db, ctx, id));

const assertUnique = async (
  db: Db,
  ctx: AuthContext,
  input: { name?: string; color?: string },
  exceptId?: number,
) => {
  const others = (column: typeof queues.name | typeof queues.color, value: string) =>
    db
      .select({ id: queues.id })
      .from(queues)
      .where(
        ofCompany(queues, ctx, eq(column, value), exceptId ? ne(queues.id, exceptId) : undefined),
      )
      .limit(1);
  if (input.color && (await others(queues.color, input.color)).length) {
    throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS', 'Another queue already uses this colour', {
      fields: { color: ['ERR_QUEUE_COLOR_ALREADY_EXISTS'] },
    });
  }
  if (input.name && (await others(queues.name, input.name)).length) {
    throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS', 'Another queue already has this name', {
      fields: { name: ['ERR_QUEUE_NAME_ALREADY_EXISTS'] },
    });
  }
};

// The agent and integration a queue names must be the company's own.
const assertReferences = async (
  db: Db,
  ctx: AuthContext,
  input: Pick<
    QueueUpdateInput,
    'promptId' | 'integrationId' | 'outOfHoursQueueId' | 'outOfHoursPromptId'
  >,
  // The queue being changed: it cannot send its own out-of-hours conversations to itself.
  self?: number,
) => {
  if (input.outOfHoursQueueId && input.outOfHoursPromptId)
    throw new AppError('ERR_VALIDATION', 'Out of hours: another queue or an AI agent, not both', {
      fields: { outOfHoursQueueId: ['Choose one'], outOfHoursPromptId: ['Choose one'] },
    });
  if (self !== undefined && input.outOfHoursQueueId === self)
    throw new AppError('ERR_VALIDATION', 'A queue cannot send its conversations to itself', {
      fields: { outOfHoursQueueId: ['Another queue'] },
    });
  const fields = await foreignReferences(db, ctx, {
    promptId: { table: prompts, id: input.promptId },
    integrationId: { table: queueIntegrations, id: input.integrationId },
    outOfHoursQueueId: { table: queues, id: input.outOfHoursQueueId },
    outOfHoursPromptId: { table: prompts, id: input.outOfHoursPromptId },
  });
  if (Object.keys(fields).length)
    throw new AppError('ERR_VALIDATION', 'Some referenced records do not exist', { fields });
};

const emitQueue = (
  deps: Deps,
  ctx: AuthContext,
  payload: { action: string } & Record<string, unknown>,
) => deps.realtime.toCompany(ctx.companyId).emit('queue', payload);

export const createQueue = async (deps: Deps, ctx: AuthContext, input: QueueInput) => {
  const values = { ...input, color: normalizeColor(input.color) };
  await assertUnique(deps.db, ctx, values);
  await assertReferences(deps.db, ctx, input);
  const queue = await deps.db.transaction(async (tx) => {
    await assertPlanLimit(tx, ctx.companyId, 'queues');
    const [row] = await tx
      .insert(queues)
      .values({
        ...values,
        companyId: ctx.companyId,
        schedules: input.schedules ?? defaultSchedules(),
      })
      .returning();
    return row;
  });
  const view = serializeQueue(queue);
  emitQueue(deps, ctx, { action: 'create', queue: view });
  if (queue.routing !== 'off') await routeSoon(deps, ctx.companyId);
  return view;
};

export const updateQueue = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: QueueUpdateInput,
) => {
  const current = await findQueue(deps.db, ctx, id);
  const values = { ...input, ...(input.color ? { color: normalizeColor(input.color) } : {}) };
  await assertUnique(deps.db, ctx, values, id);
  // Checked as the queue will be: a new out-of-hours queue next to a kept AI agent is both.
  await assertReferences(
    deps.db,
    ctx,
    {
      ...input,
      outOfHoursQueueId:
        input.outOfHoursQueueId !== undefined ? input.outOfHoursQueueId : current.outOfHoursQueueId,
      outOfHoursPromptId:
        input.outOfHoursPromptId !== undefined
          ? input.outOfHoursPromptId
          : current.outOfHoursPromptId,
    },
    id,
  );
  const [queue] = await updateReturning(deps.db, queues, values, ownedRow(queues, id, ctx));
  const view = serializeQueue(queue);
  emitQueue(deps, ctx, { action: 'update', queue: view });
  // Routing turned on (or its mode changed): what waits there now is given out.
  if (queue.routing !== 'off') await routeSoon(deps, ctx.companyId);
  return view;
};

export const deleteQueue = async (deps: Deps, ctx: AuthContext, id: number) => {
  await findQueue(deps.db, ctx, id);
  await deps.db.delete(queues).where(ownedRow(queues, id, ctx));
  emitQueue(deps, ctx, { action: 'delete', queueId: id });
};

// --- Queue options: the chatbot menu tree of a queue ---

const serializeOption = (option: OptionRow) => ({
  id: option.id,
  queueId: option.queueId,
  parentId: option.parentId,
  title: option.title,
  message: option.message,
  option: option.option,
  createdAt: option.createdAt,
  updatedAt: option.updatedAt,
});

const findOption = async (db: Db, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(queueOptions)
        .where(ownedRow(queueOptions, id, ctx))
    )[0],
  );

export const listOptions = async (
  db: Db,
  ctx: AuthContext,
  query: { queueId: number; parentId: number },
) => {
  await findQueue(db, ctx, query.queueId);
  const parent =
    query.parentId > 0
      ? eq(queueOptions.parentId, query.parentId)
      : sql`${queueOptions.parentId} is null`;
  const rows = await db
    .select()
    .from(queueOptions)
    .where(ofCompany(queueOptions, ctx, eq(queueOptions.queueId, query.queueId), parent))
    // Positions are text ('1', '2', '10'): numeric ones sort as numbers.
    .orderBy(sql`length(${queueOptions.option})`, asc(queueOptions.option), asc(queueOptions.id));
  return rows.map(serializeOption);
};

export const getOption = async (db: Db, ctx: AuthContext, id: number) =>
  serializeOption(await findOption(db, ctx, id));

export const createOption = async (db: Db, ctx: AuthContext, input: QueueOptionInput) => {
  await findQueue(db, ctx, input.queueId);
  if (input.parentId) {
    const parent = await findOption(db, ctx, input.parentId);
    if (parent.queueId !== input.queueId)
      throw new AppError('ERR_VALIDATION', 'The parent option belongs to another queue');
  }
  const [row] = await db
    .insert(queueOptions)
    .values({ ...input, parentId: input.parentId ?? null, companyId: ctx.companyId })
    .returning();
  return serializeOption(row);
};

export const updateOption = async (
  db: Db,
  ctx: AuthContext,
  id: number,
  input: Partial<Pick<QueueOptionInput, 'title' | 'message' | 'option'>>,
) => {
  await findOption(db, ctx, id);
  const [row] = await updateReturning(db, queueOptions, input, ownedRow(queueOptions, id, ctx));
  return serializeOption(row);
};

// Removing an option removes its whole branch.
export const deleteOption = async (db: Db, ctx: AuthContext, id: number) => {
  await findOption(db, ctx, id);
  // Option trees are a few dozen rows: walk them level by level.
  const ids = [id];
  for (let level = [id]; level.length;) {
    const children = await db
      .select({ id: queueOptions.id })
      .from(queueOptions)
      .where(ofCompany(queueOptions, ctx, inArray(queueOptions.parentId, level)));
    level = children.map((c) => c.id);
    ids.push(...level);
  }
  await db
    .delete(queueOptions)
    .where(and(eq(queueOptions.companyId, ctx.companyId), inArray(queueOptions.id, ids)));
};
