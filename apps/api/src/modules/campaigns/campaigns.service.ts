import { auditAs } from '../../platform/audit';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import {
  CAMPAIGN_SHIPPING_PAGE_SIZE,
  CAMPAIGNS_PAGE_SIZE,
  campaignEditable,
  campaignIssues,
  campaignMessageKeys,
  campaignSettingKeys,
  campaignSettingsOf,
  type CampaignEvent,
  type CampaignInput,
  type CampaignReport,
  type CampaignSettings,
  type CampaignShippingView,
  type CampaignUpdateInput,
  type CampaignView,
  type ShippingStatus,
  shippingReceipt,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  campaigns,
  campaignSettings,
  campaignShipping,
  contactLists,
  fileLists,
  messageTemplates,
  tags,
  whatsapps,
} from '../../db/schema';
import { csvLine } from '../../platform/csv';
import type { StoredFile } from '../../platform/uploads';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import { findTemplate, templateProblems } from '../templates';

// Campaigns (SPEC §3, §4, §5, §7): what to send, to whom, through which connection and when. The
// sending is campaign-dispatcher.ts; this file keeps the rows, their rules and their views.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'jobs' | 'config' | 'events'>;
export type CampaignRow = typeof campaigns.$inferSelect;
type Company = Pick<AuthContext, 'companyId'>;

const emptyReport = (): CampaignReport => ({
  recipients: 0,
  valid: 0,
  pending: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  optedOut: 0,
  awaitingConfirmation: 0,
  confirmed: 0,
});

// Where each campaign's recipients stand, in one grouped statement.
const reportsOf = async (db: Db, ids: number[]) => {
  const reports = new Map<number, CampaignReport>(ids.map((id) => [id, emptyReport()]));
  if (!ids.length) return reports;
  const status = (value: ShippingStatus) =>
    sql<number>`count(*) filter (where ${campaignShipping.status} = ${value})::int`;
  const rows = await db
    .select({
      campaignId: campaignShipping.campaignId,
      recipients: sql<number>`count(*)::int`,
      valid: sql<number>`count(*) filter (where ${campaignShipping.status} <> 'opted_out')::int`,
      pending: sql<number>`count(*) filter (where ${campaignShipping.status} in ('pending', 'sending'))::int`,
      sent: status('delivered'),
      delivered: sql<number>`count(*) filter (where ${campaignShipping.status} = 'delivered' and ${campaignShipping.ack} >= 3)::int`,
      read: sql<number>`count(*) filter (where ${campaignShipping.status} = 'delivered' and ${campaignShipping.ack} >= 4)::int`,
      failed: status('failed'),
      optedOut: sql<number>`count(*) filter (where ${campaignShipping.status} = 'opted_out' or ${campaignShipping.optedOutAt} is not null)::int`,
      awaitingConfirmation: status('confirmation'),
      confirmed: sql<number>`count(${campaignShipping.confirmedAt})::int`,
    })
    .from(campaignShipping)
    .where(inArray(campaignShipping.campaignId, ids))
    .groupBy(campaignShipping.campaignId);
  for (const { campaignId, ...report } of rows) reports.set(campaignId, report);
  return reports;
};

const views = (db: Db) =>
  db
    .select({
      campaign: campaigns,
      whatsappName: whatsapps.name,
      contactListName: contactLists.name,
      tagName: tags.name,
      fileListName: fileLists.name,
      templateName: messageTemplates.name,
      templateLanguage: messageTemplates.language,
    })
    .from(campaigns)
    .leftJoin(whatsapps, eq(whatsapps.id, campaigns.whatsappId))
    .leftJoin(contactLists, eq(contactLists.id, campaigns.contactListId))
    .leftJoin(tags, eq(tags.id, campaigns.tagListId))
    .leftJoin(fileLists, eq(fileLists.id, campaigns.fileListId))
    .leftJoin(messageTemplates, eq(messageTemplates.id, campaigns.templateId))
    .$dynamic();
type ViewRow = Awaited<ReturnType<ReturnType<typeof views>['execute']>>[number];

const named = (id: number | null, name: string | null) =>
  id !== null && name !== null ? { id, name } : null;
const iso = (date: Date | null) => date?.toISOString() ?? null;

const serialize = (deps: Deps, row: ViewRow, report: CampaignReport): CampaignView => {
  const c = row.campaign;
  return {
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    status: c.status,
    message1: c.message1,
    message2: c.message2,
    message3: c.message3,
    message4: c.message4,
    message5: c.message5,
    confirmation: c.confirmation,
    confirmationMessage1: c.confirmationMessage1,
    confirmationMessage2: c.confirmationMessage2,
    confirmationMessage3: c.confirmationMessage3,
    confirmationMessage4: c.confirmationMessage4,
    confirmationMessage5: c.confirmationMessage5,
    scheduledAt: iso(c.scheduledAt),
    completedAt: iso(c.completedAt),
    whatsappId: c.whatsappId,
    whatsapp: named(c.whatsappId, row.whatsappName),
    contactListId: c.contactListId,
    contactList: named(c.contactListId, row.contactListName),
    tagListId: c.tagListId,
    tag: named(c.tagListId, row.tagName),
    fileListId: c.fileListId,
    fileList: named(c.fileListId, row.fileListName),
    mediaName: c.mediaPath ? (c.mediaName ?? c.mediaPath) : null,
    mediaUrl: c.mediaPath ? deps.uploads.urlFor(c.companyId, c.mediaPath) : null,
    templateId: c.templateId,
    template:
      c.templateId !== null && row.templateName !== null
        ? { id: c.templateId, name: row.templateName, language: row.templateLanguage ?? '' }
        : null,
    templateParams: c.templateParams,
    report,
    held:
      c.heldReason && c.heldUntil && c.status === 'EM_ANDAMENTO'
        ? { reason: c.heldReason, until: c.heldUntil.toISOString() }
        : null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
};

const serializeAll = async (deps: Deps, rows: ViewRow[]) => {
  const reports = await reportsOf(
    deps.db,
    rows.map((r) => r.campaign.id),
  );
  return rows.map((row) => serialize(deps, row, reports.get(row.campaign.id)!));
};

// One campaign as the screens see it; undefined when it is gone.
const campaignView = async (deps: Deps, companyId: number, id: number) => {
  const rows = await views(deps.db).where(ownedRow(campaigns, id, { companyId }));
  return rows.length ? (await serializeAll(deps, rows))[0] : undefined;
};

const loadView = async (deps: Deps, ctx: Company, id: number) =>
  foundOr404(await campaignView(deps, ctx.companyId, id), 'ERR_NO_CAMPAIGN_FOUND');

const emitCampaign = (deps: Pick<Deps, 'realtime'>, companyId: number, event: CampaignEvent) =>
  deps.realtime.toCompany(companyId).emit('campaign', event);

// Tells the company's screens how a campaign stands now (or that it is gone).
export const announceCampaign = async (deps: Deps, companyId: number, id: number) => {
  const view = await campaignView(deps, companyId, id);
  emitCampaign(
    deps,
    companyId,
    view ? { action: 'update', record: view } : { action: 'delete', id },
  );
  return view;
};

const findOwned = async (db: Db, ctx: Company, id: number, lock = false) => {
  const query = db
    .select()
    .from(campaigns)
    .where(ownedRow(campaigns, id, ctx));
  return foundOr404((await (lock ? query.for('update') : query))[0], 'ERR_NO_CAMPAIGN_FOUND');
};

// GET /campaigns: the table, newest first, searched by name.
export const listCampaigns = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number },
) => {
  const term = query.searchParam.trim();
  const where = ofCompany(
    campaigns,
    ctx,
    term ? ilike(campaigns.name, containsPattern(term)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    views(deps.db)
      .where(where)
      .orderBy(desc(campaigns.id))
      .limit(CAMPAIGNS_PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE),
    deps.db.select({ n: count() }).from(campaigns).where(where),
  ]);
  return {
    records: await serializeAll(deps, rows.slice(0, CAMPAIGNS_PAGE_SIZE)),
    count: total?.n ?? 0,
    hasMore: rows.length > CAMPAIGNS_PAGE_SIZE,
  };
};

export const getCampaign = (deps: Deps, ctx: AuthContext, id: number) => loadView(deps, ctx, id);

// The connection, list, tag and file list a campaign names must be the company's own: 404 otherwise.
const checkReferences = async (
  db: Db,
  ctx: Company,
  input: Partial<Pick<CampaignInput, 'whatsappId' | 'contactListId' | 'tagListId' | 'fileListId'>>,
) => {
  const owned = async (
    table: typeof whatsapps | typeof contactLists | typeof tags | typeof fileLists,
    id: number | null | undefined,
    code: 'ERR_NO_WAPP_FOUND' | 'ERR_NO_CONTACT_LIST_FOUND' | 'ERR_NOT_FOUND',
  ) => {
    if (id === null || id === undefined) return;
    const [row] = await db
      .select({ id: table.id })
      .from(table)
      .where(ownedRow(table, id, ctx));
    foundOr404(row, code);
  };
  await owned(whatsapps, input.whatsappId, 'ERR_NO_WAPP_FOUND');
  await owned(contactLists, input.contactListId, 'ERR_NO_CONTACT_LIST_FOUND');
  await owned(tags, input.tagListId, 'ERR_NOT_FOUND');
  await owned(fileLists, input.fileListId, 'ERR_NOT_FOUND');
};

// A campaign's template must be the company's (404) and its connection's; a scheduled one needs it
// approved with every value given, and a Cloud API connection needs one (Meta refuses free-form
// messages to contacts who have not written in 24 hours, which is nearly everyone a campaign reaches).
const checkTemplate = async (
  db: Db,
  ctx: Company,
  campaign: Pick<CampaignRow, 'templateId' | 'templateParams' | 'whatsappId' | 'scheduledAt'>,
) => {
  const [connection] =
    campaign.whatsappId === null
      ? []
      : await db
          .select({ provider: whatsapps.provider })
          .from(whatsapps)
          .where(ownedRow(whatsapps, campaign.whatsappId, ctx));
  const scheduled = campaign.scheduledAt !== null;
  if (campaign.templateId === null) {
    if (scheduled && connection?.provider === 'cloud')
      throw invalid([
        {
          path: 'templateId',
          message: 'Cloud API connections start conversations with an approved template',
        },
      ]);
    return;
  }
  const template = await findTemplate(db, ctx.companyId, campaign.templateId);
  const fields = templateProblems(template, campaign.whatsappId, campaign.templateParams);
  // A draft may hold a template not approved yet, or values still to write.
  const blocking = scheduled
    ? fields
    : template.whatsappId !== campaign.whatsappId
      ? { templateId: fields.templateId }
      : {};
  if (Object.keys(blocking).length)
    throw new AppError('ERR_VALIDATION', 'The template cannot be sent as it is', {
      fields: blocking,
    });
};

const statusFor = (scheduledAt: string | Date | null) =>
  scheduledAt === null ? ('INATIVA' as const) : ('PROGRAMADA' as const);

const dueNow = (scheduledAt: string | Date | null) =>
  scheduledAt !== null && new Date(scheduledAt).getTime() <= Date.now();

// The fields a request sets (undefined ones left out), with the schedule as a date.
const toRow = (input: CampaignUpdateInput) => {
  const { scheduledAt, ...rest } = input;
  const row: Partial<Omit<CampaignRow, 'id' | 'companyId'>> = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  );
  if (scheduledAt !== undefined)
    row.scheduledAt = scheduledAt === null ? null : new Date(scheduledAt);
  return row;
};

// Saved with a time already come: the dispatcher starts it now rather than at its next look.
type StartDue = () => void;

export const createCampaign = async (
  deps: Deps,
  ctx: AuthContext,
  input: CampaignInput,
  startDue: StartDue,
) => {
  await checkReferences(deps.db, ctx, input);
  await checkTemplate(deps.db, ctx, {
    ...input,
    scheduledAt: input.scheduledAt === null ? null : new Date(input.scheduledAt),
  });
  const [row] = await deps.db
    .insert(campaigns)
    .values({
      ...toRow(input),
      name: input.name,
      companyId: ctx.companyId,
      status: statusFor(input.scheduledAt),
    })
    .returning();
  const view = await loadView(deps, ctx, row!.id);
  emitCampaign(deps, ctx.companyId, { action: 'create', record: view });
  if (dueNow(input.scheduledAt)) startDue();
  return view;
};

const notEditable = () =>
  new AppError(
    'ERR_CAMPAIGN_NOT_EDITABLE',
    'Only an inactive campaign, or one scheduled more than an hour ahead, can be changed; a cancelled one only in its messages',
  );

const invalid = (issues: { path: string; message: string }[]) =>
  new AppError('ERR_VALIDATION', issues.map((i) => `${i.path}: ${i.message}`).join('; '), {
    fields: Object.fromEntries(issues.map((i) => [i.path, [i.message]])),
  });

// PUT /campaigns/{id}. The row is locked, so the check of its state and the change are one step: a
// dispatcher starting it meanwhile waits, and then the change is refused.
export const updateCampaign = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: CampaignUpdateInput,
  startDue: StartDue,
) => {
  const changed = Object.keys(input).filter(
    (key) => input[key as keyof CampaignUpdateInput] !== undefined,
  );
  const saved = await deps.events.transaction(deps.db, async (tx, raise) => {
    const before = await findOwned(tx, ctx, id, true);
    const messagesOnly = changed.every((key) =>
      (campaignMessageKeys as readonly string[]).includes(key),
    );
    const editable = campaignEditable(before) || (before.status === 'CANCELADA' && messagesOnly);
    if (!editable) throw notEditable();
    const merged = { ...before, ...toRow(input) };
    const issues = campaignIssues(merged);
    if (issues.length) throw invalid(issues);
    await checkReferences(tx, ctx, input);
    // A cancelled campaign only takes its messages: its template stays as it was.
    if (before.status !== 'CANCELADA') await checkTemplate(tx, ctx, merged);
    const status = before.status === 'CANCELADA' ? before.status : statusFor(merged.scheduledAt);
    await tx
      .update(campaigns)
      .set({ ...toRow(input), status, updatedAt: new Date() })
      .where(ownedRow(campaigns, id, ctx));
    // Scheduled, or no longer.
    if (status !== before.status)
      raise({
        type: 'campaign.status',
        companyId: ctx.companyId,
        campaignId: id,
        before: before.status,
        after: status,
      });
    return { status, scheduledAt: merged.scheduledAt };
  });
  const view = await loadView(deps, ctx, id);
  emitCampaign(deps, ctx.companyId, { action: 'update', record: view });
  if (saved.status === 'PROGRAMADA' && dueNow(saved.scheduledAt)) startDue();
  return view;
};

// DELETE /campaigns/{id}: its recipients go with it; a running dispatcher finds nothing and stops.
export const deleteCampaign = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await deps.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(campaigns)
      .where(ownedRow(campaigns, id, ctx))
      .returning({ mediaPath: campaigns.mediaPath, name: campaigns.name });
    const found = foundOr404(deleted, 'ERR_NO_CAMPAIGN_FOUND');
    await auditAs(tx, ctx, {
      action: 'campaign.deleted',
      target: `campaign:${id}`,
      detail: { name: found.name },
    });
    return found;
  });
  await deps.uploads.remove(ctx.companyId, row.mediaPath);
  emitCampaign(deps, ctx.companyId, { action: 'delete', id });
};

// The company owning a campaign whose attachment may change, checked before a file is read, so a
// refused upload stores nothing.
export const campaignMediaOwner = async (deps: Deps, ctx: AuthContext, id: number) => {
  const row = await findOwned(deps.db, ctx, id);
  if (!campaignEditable(row)) throw notEditable();
  return row.companyId;
};

// POST (a file) and DELETE (null) /campaigns/{id}/media-upload.
export const setCampaignMedia = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  media: Pick<StoredFile, 'storedName' | 'originalName'> | null,
) => {
  const replaced = await deps.db.transaction(async (tx) => {
    const before = await findOwned(tx, ctx, id, true);
    if (!campaignEditable(before)) throw notEditable();
    await tx
      .update(campaigns)
      .set({
        mediaPath: media?.storedName ?? null,
        mediaName: media?.originalName ?? null,
        updatedAt: new Date(),
      })
      .where(ownedRow(campaigns, id, ctx));
    return before.mediaPath;
  });
  // The replaced file goes only once the new one is recorded.
  if (replaced !== (media?.storedName ?? null)) await deps.uploads.remove(ctx.companyId, replaced);
  return (await announceCampaign(deps, ctx.companyId, id))!;
};

const refuseStatus = (action: string, status: string) =>
  new AppError('ERR_CAMPAIGN_STATUS', `A campaign that is ${status} cannot be ${action}`);

// POST /campaigns/{id}/cancel: a scheduled or running campaign stops; the dispatcher sends nothing
// more once it sees the change (before its next message).
export const cancelCampaign = async (deps: Deps, ctx: AuthContext, id: number) => {
  await deps.events.transaction(deps.db, async (tx, raise) => {
    // Locked first, so the status read is the one the cancel ends.
    const before = await findOwned(tx, ctx, id, true);
    const [row] = await tx
      .update(campaigns)
      .set({ status: 'CANCELADA', updatedAt: new Date() })
      .where(
        and(
          ownedRow(campaigns, id, ctx),
          inArray(campaigns.status, ['PROGRAMADA', 'EM_ANDAMENTO']),
        ),
      )
      .returning({ id: campaigns.id });
    if (!row) throw refuseStatus('cancelled', before.status);
    raise({
      type: 'campaign.status',
      companyId: ctx.companyId,
      campaignId: id,
      before: before.status,
      after: 'CANCELADA',
    });
  });
  return (await announceCampaign(deps, ctx.companyId, id))!;
};

export type EnsureDispatch = (
  tx: Db,
  campaign: Pick<CampaignRow, 'id' | 'companyId'>,
) => Promise<void>;

// POST /campaigns/{id}/restart: a cancelled campaign runs again, with the recipients not yet sent (a
// campaign cancelled before it started plans them first).
export const restartCampaign = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  dispatch: { ensure: EnsureDispatch; kick: () => void },
) => {
  await deps.events.transaction(deps.db, async (tx, raise) => {
    const [row] = await tx
      .update(campaigns)
      .set({ status: 'EM_ANDAMENTO', completedAt: null, updatedAt: new Date() })
      .where(and(ownedRow(campaigns, id, ctx), eq(campaigns.status, 'CANCELADA')))
      .returning();
    if (!row) throw refuseStatus('restarted', (await findOwned(tx, ctx, id)).status);
    await dispatch.ensure(tx, row);
    raise({
      type: 'campaign.status',
      companyId: row.companyId,
      campaignId: row.id,
      before: 'CANCELADA',
      after: 'EM_ANDAMENTO',
    });
  });
  dispatch.kick();
  return (await announceCampaign(deps, ctx.companyId, id))!;
};

const serializeShipping = (row: typeof campaignShipping.$inferSelect): CampaignShippingView => ({
  id: row.id,
  number: row.number,
  name: row.name,
  variant: row.variant,
  status: row.status,
  ack: row.ack,
  deliveredAt: iso(row.deliveredAt),
  confirmationRequestedAt: iso(row.confirmationRequestedAt),
  confirmedAt: iso(row.confirmedAt),
  optedOutAt: iso(row.optedOutAt),
  error: row.error,
  updatedAt: row.updatedAt.toISOString(),
});

const shippingWhere = (id: number, query: { searchParam: string; status?: ShippingStatus }) => {
  const term = query.searchParam.trim();
  const conditions: (SQL | undefined)[] = [eq(campaignShipping.campaignId, id)];
  // Pending includes the one being sent; opted out, those who opted out after getting the message.
  if (query.status)
    conditions.push(
      query.status === 'pending'
        ? inArray(campaignShipping.status, ['pending', 'sending'])
        : query.status === 'opted_out'
          ? or(eq(campaignShipping.status, 'opted_out'), isNotNull(campaignShipping.optedOutAt))
          : eq(campaignShipping.status, query.status),
    );
  if (term)
    conditions.push(
      or(
        ilike(campaignShipping.number, containsPattern(term)),
        ilike(campaignShipping.name, containsPattern(term)),
      ),
    );
  return and(...conditions)!;
};

// GET /campaigns/{id}/shipping: the report's per-recipient table, in planning order.
export const listShipping = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  query: { searchParam: string; pageNumber: number; status?: ShippingStatus },
) => {
  await findOwned(deps.db, ctx, id);
  const where = shippingWhere(id, query);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(campaignShipping)
      .where(where)
      .orderBy(asc(campaignShipping.id))
      .limit(CAMPAIGN_SHIPPING_PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * CAMPAIGN_SHIPPING_PAGE_SIZE),
    deps.db.select({ n: count() }).from(campaignShipping).where(where),
  ]);
  return {
    records: rows.slice(0, CAMPAIGN_SHIPPING_PAGE_SIZE).map(serializeShipping),
    count: total?.n ?? 0,
    hasMore: rows.length > CAMPAIGN_SHIPPING_PAGE_SIZE,
  };
};

// GET /campaigns/{id}/shipping.csv: every recipient, read a chunk at a time.
export async function* shippingCsv(deps: Deps, ctx: AuthContext, id: number) {
  await findOwned(deps.db, ctx, id);
  yield csvLine([
    'number',
    'name',
    'variant',
    'status',
    'receipt',
    'sentAt',
    'confirmedAt',
    'optedOutAt',
    'error',
  ]);
  let after = 0;
  for (;;) {
    const rows = await deps.db
      .select()
      .from(campaignShipping)
      .where(and(eq(campaignShipping.campaignId, id), gt(campaignShipping.id, after)))
      .orderBy(asc(campaignShipping.id))
      .limit(5000);
    if (!rows.length) return;
    after = rows[rows.length - 1]!.id;
    yield rows
      .map((row) =>
        csvLine([
          row.number,
          row.name,
          row.variant,
          row.status,
          shippingReceipt(row),
          iso(row.deliveredAt),
          iso(row.confirmedAt),
          iso(row.optedOutAt),
          row.error,
        ]),
      )
      .join('');
  }
}

// Campaign settings: one row per key, the value JSON text (SPEC §7).
const settingsList = async (db: Db, companyId: number) =>
  db
    .select({ key: campaignSettings.key, value: campaignSettings.value })
    .from(campaignSettings)
    .where(eq(campaignSettings.companyId, companyId));

export const campaignSettingsFor = async (db: Db, companyId: number): Promise<CampaignSettings> =>
  campaignSettingsOf(await settingsList(db, companyId));

// GET /campaign-settings: every key, with its default when never saved.
export const listCampaignSettings = async (deps: Deps, ctx: AuthContext) => {
  const settings = await campaignSettingsFor(deps.db, ctx.companyId);
  return campaignSettingKeys.map((key) => ({ key, value: JSON.stringify(settings[key]) }));
};

// POST /campaign-settings: the keys sent, each upserted.
export const saveCampaignSettings = async (
  deps: Deps,
  ctx: AuthContext,
  input: Partial<CampaignSettings>,
) => {
  const entries = campaignSettingKeys.filter((key) => input[key] !== undefined);
  if (entries.length)
    await deps.db
      .insert(campaignSettings)
      .values(
        entries.map((key) => ({
          companyId: ctx.companyId,
          key,
          value: JSON.stringify(input[key]),
        })),
      )
      .onConflictDoUpdate({
        target: [campaignSettings.companyId, campaignSettings.key],
        set: { value: sql`excluded.value`, updatedAt: new Date() },
      });
  return listCampaignSettings(deps, ctx);
};
