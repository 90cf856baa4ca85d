import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import {
  renderTemplate,
  templateMediaHeaders,
  templateParamIssues,
  templateShape,
  type TemplateList,
  type TemplateParams,
  type TemplateSendInput,
  type TemplateView,
} from '@atendi/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { messageTemplates, whatsapps } from '../../db/schema';
import type { TemplateSend } from '../../channels/driver';
import { graphClientFor } from '../../channels/cloud/graph';
import { withOpenCloudSecrets } from '../../channels/cloud/credentials';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { foundOr404, ownedRow } from '../../platform/tenancy';
import { findWhatsapp } from '../whatsapps';
import { assertWritable, sendMessages, visibleTicket } from '../messages';

// Cloud API message templates (shared/templates.ts): a copy of the WhatsApp Business Account's
// templates per connection, synced from the Graph API, sent from the inbox (this file) and from
// campaigns (campaign-dispatcher.ts, through templateSendOf).

export type TemplateRow = typeof messageTemplates.$inferSelect;
type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads' | 'channels' | 'events'>;

const serializeTemplate = (row: TemplateRow): TemplateView => {
  const shape = templateShape(row.components);
  return {
    id: row.id,
    whatsappId: row.whatsappId,
    name: row.name,
    language: row.language,
    status: row.status,
    category: row.category,
    headerFormat: shape.headerFormat,
    headerText: shape.headerText,
    bodyText: shape.bodyText,
    footerText: shape.footerText,
    buttons: shape.buttons,
    headerParams: shape.headerParams,
    bodyParams: shape.bodyParams,
    updatedAt: row.updatedAt.toISOString(),
  };
};

// GET /whatsapp/{whatsappId}/templates: the copy as last synced (none on other providers).
export const listTemplates = async (
  db: Db,
  ctx: Pick<AuthContext, 'companyId'>,
  whatsappId: number,
): Promise<TemplateList> => {
  const connection = await findWhatsapp(db, ctx, whatsappId);
  const rows = await db
    .select()
    .from(messageTemplates)
    .where(eq(messageTemplates.whatsappId, connection.id))
    .orderBy(asc(messageTemplates.name), asc(messageTemplates.language));
  return {
    templates: rows.map(serializeTemplate),
    syncedAt: connection.templatesSyncedAt?.toISOString() ?? null,
  };
};

// POST /whatsapp/{whatsappId}/templates/sync: the account's templates, copied again. Templates the
// account no longer lists stay, marked DELETED, so campaigns that used one still say which.
export const syncTemplates = async (
  { db, secrets, outbound }: Pick<AppDeps, 'db' | 'secrets' | 'outbound'>,
  ctx: Pick<AuthContext, 'companyId'>,
  whatsappId: number,
  log: FastifyBaseLogger,
): Promise<TemplateList> => {
  const connection = await findWhatsapp(db, ctx, whatsappId);
  if (connection.provider !== 'cloud')
    throw new AppError('ERR_VALIDATION', 'Only Cloud API connections have message templates');
  const account = connection.cloudBusinessAccountId;
  if (!account)
    throw new AppError(
      'ERR_VALIDATION',
      'Set the WhatsApp Business Account id of the connection to read its templates',
      { fields: { cloudBusinessAccountId: ['Required'] } },
    );
  const graph = graphClientFor(withOpenCloudSecrets(secrets, connection), outbound.fetch);
  const { templates, skipped } = await graph.listTemplates(account);
  if (skipped)
    log.warn({ whatsappId, skipped }, 'graph api listed templates that could not be read');
  const now = new Date();
  await db.transaction(async (tx) => {
    // One sync of a connection at a time, so an older listing never overwrites a newer one.
    await tx
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(eq(whatsapps.id, connection.id))
      .for('update');
    if (templates.length)
      await tx
        .insert(messageTemplates)
        .values(
          templates.map((t) => ({
            companyId: connection.companyId,
            whatsappId: connection.id,
            providerId: t.id,
            name: t.name,
            language: t.language,
            status: t.status.toUpperCase(),
            category: t.category.toUpperCase(),
            components: t.components,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [messageTemplates.whatsappId, messageTemplates.name, messageTemplates.language],
          set: {
            providerId: sql`excluded.provider_id`,
            status: sql`excluded.status`,
            category: sql`excluded.category`,
            components: sql`excluded.components`,
            updatedAt: now,
          },
        });
    const listed = templates.map((t) => t.id);
    await tx
      .update(messageTemplates)
      .set({ status: 'DELETED', updatedAt: now })
      .where(
        and(
          eq(messageTemplates.whatsappId, connection.id),
          listed.length ? notInArray(messageTemplates.providerId, listed) : undefined,
          sql`${messageTemplates.status} <> 'DELETED'`,
        ),
      );
    await tx
      .update(whatsapps)
      .set({ templatesSyncedAt: now })
      .where(eq(whatsapps.id, connection.id));
  });
  log.info({ whatsappId, templates: templates.length }, 'message templates synced');
  return listTemplates(db, ctx, whatsappId);
};

// The company's template, 404 otherwise.
export const findTemplate = async (db: Db, companyId: number, id: number) =>
  foundOr404(
    (
      await db
        .select()
        .from(messageTemplates)
        .where(ownedRow(messageTemplates, id, { companyId }))
    )[0],
    'ERR_NO_TEMPLATE_FOUND',
  );

// Why this template cannot be sent with these values through this connection, as field errors
// (templateId, and the values under paramsField); none when it can.
export const templateProblems = (
  template: TemplateRow,
  whatsappId: number | null,
  params: TemplateParams,
  paramsField = 'templateParams',
) => {
  const fields: Record<string, string[]> = {};
  const shape = templateShape(template.components);
  if (template.whatsappId !== whatsappId)
    fields.templateId = ['The template belongs to another connection'];
  else if (template.status !== 'APPROVED')
    fields.templateId = [`The template is ${template.status}: only approved templates can be sent`];
  else if (shape.headerFormat === 'LOCATION')
    fields.templateId = ['Templates with a location header cannot be sent from here'];
  for (const issue of templateParamIssues(shape, params, paramsField))
    fields[issue.path] = [issue.message];
  return fields;
};

// What the driver sends, with each value passed through fill (a campaign's per-recipient variables).
export const templateSendOf = (
  template: TemplateRow,
  params: TemplateParams,
  fill: (text: string) => string = (text) => text,
): { send: TemplateSend; text: string } => {
  const shape = templateShape(template.components);
  const filled = {
    header: shape.headerParams.map((_, i) => fill(params.header[i] ?? '')),
    body: shape.bodyParams.map((_, i) => fill(params.body[i] ?? '')),
  };
  return {
    send: {
      name: template.name,
      language: template.language,
      header: shape.headerParams.map((name, i) => ({ name, value: filled.header[i] })),
      body: shape.bodyParams.map((name, i) => ({ name, value: filled.body[i] })),
    },
    text: renderTemplate(shape, filled),
  };
};

export const needsHeaderFile = (template: TemplateRow) => {
  const { headerFormat } = templateShape(template.components);
  return headerFormat !== null && templateMediaHeaders.includes(headerFormat);
};

// POST /messages/{ticketId}/template: an agent opens (or reopens) the conversation with an approved
// template; the chat shows the text it makes.
export const sendTemplateMessage = async (
  deps: Deps,
  ctx: AuthContext,
  ticketId: number,
  input: TemplateSendInput,
  options: { kick: () => void; log: FastifyBaseLogger },
) => {
  const ticket = await visibleTicket(deps.db, ctx, ticketId);
  assertWritable(ticket);
  const template = await findTemplate(deps.db, ctx.companyId, input.templateId);
  const fields = templateProblems(template, ticket.whatsappId, input.params, 'params');
  if (Object.keys(fields).length)
    throw new AppError('ERR_VALIDATION', 'The template cannot be sent as it is', { fields });
  if (needsHeaderFile(template))
    throw new AppError(
      'ERR_VALIDATION',
      'This template needs a file in its header: send it from a campaign',
      { fields: { templateId: ['Templates with a file header are sent from campaigns'] } },
    );
  const { send, text } = templateSendOf(template, input.params);
  const sent = await sendMessages(
    deps,
    ticket,
    { body: text, quotedMsgId: null, medias: [] },
    { ...options, author: { kind: 'agent', userId: ctx.userId }, template: send },
  );
  return sent.messages;
};
