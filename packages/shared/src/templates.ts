import { z } from 'zod';
import { dateTime } from './responses';

// WhatsApp message templates (official Cloud API only). Meta refuses a free-form message to a contact
// who has not written in the last 24 hours; outside that window a business may only send a template
// the account had approved. The platform keeps a copy of the account's templates (synced from the
// Graph API), sends them from campaigns and from the inbox composer, and tells screens whether a
// conversation's window is open.

// How long after the contact's last message free-form messages are accepted.
export const REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;
// Meta's limits on a template parameter.
export const TEMPLATE_PARAM_MAX = 1024;

// Meta's statuses; only APPROVED templates can be sent.
export const templateStatuses = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'LIMIT_EXCEEDED',
  // Ours: the account no longer lists it (kept so campaigns that used it still name it).
  'DELETED',
] as const;
export type TemplateStatus = (typeof templateStatuses)[number];

export const templateHeaderFormats = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export type TemplateHeaderFormat = (typeof templateHeaderFormats)[number];
// Headers that carry a file, given when the template is sent.
export const templateMediaHeaders: readonly TemplateHeaderFormat[] = ['IMAGE', 'VIDEO', 'DOCUMENT'];

// A template's components as the Graph API lists them (GET /{waba-id}/message_templates). Unknown
// component types and fields are kept but not interpreted.
export const templateComponentSchema = z.looseObject({
  type: z.string().max(40),
  format: z.string().max(40).optional(),
  text: z.string().max(4096).optional(),
  buttons: z
    .array(z.looseObject({ type: z.string().max(40), text: z.string().max(200).optional() }))
    .max(20)
    .optional(),
});
export type TemplateComponent = z.infer<typeof templateComponentSchema>;

// One template of a Graph API listing page.
export const graphTemplateSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(512),
  language: z.string().min(1).max(20),
  status: z.string().max(40),
  category: z.string().max(40).optional().default(''),
  parameter_format: z.string().max(20).optional(),
  components: z.array(templateComponentSchema).max(20).optional().default([]),
});
export type GraphTemplate = z.infer<typeof graphTemplateSchema>;

// The parameters a text names, in the order they are sent: positional ones ({{1}}, {{2}}) by number,
// named ones ({{first_name}}) as they first appear.
export const templateParamNames = (text: string | undefined): string[] => {
  const names: string[] = [];
  for (const match of (text ?? '').matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g))
    if (!names.includes(match[1])) names.push(match[1]);
  return names.every((name) => /^\d+$/.test(name))
    ? names.sort((a, b) => Number(a) - Number(b))
    : names;
};

// What a screen and a sender need to know of a template.
export const templateShape = (components: readonly TemplateComponent[]) => {
  const find = (type: string) => components.find((c) => c.type.toUpperCase() === type);
  const header = find('HEADER');
  const format = header?.format?.toUpperCase();
  const headerFormat = (templateHeaderFormats as readonly string[]).includes(format ?? '')
    ? (format as TemplateHeaderFormat)
    : null;
  const headerText = headerFormat === 'TEXT' ? (header?.text ?? '') : '';
  const bodyText = find('BODY')?.text ?? '';
  return {
    headerFormat,
    headerText,
    bodyText,
    footerText: find('FOOTER')?.text ?? '',
    buttons: (find('BUTTONS')?.buttons ?? []).map((button) => button.text ?? '').filter(Boolean),
    headerParams: templateParamNames(headerText),
    bodyParams: templateParamNames(bodyText),
  };
};
export type TemplateShape = ReturnType<typeof templateShape>;

// The values of a send: one per parameter of the header and of the body, in templateShape's order.
// Campaigns may write the recipient's variables in them ({{name}}, {{firstName}}, {{number}}, or the
// company's own); they are filled per recipient.
export const templateParamsSchema = z.object({
  header: z.array(z.string().max(TEMPLATE_PARAM_MAX)).max(1).optional().default([]),
  body: z.array(z.string().max(TEMPLATE_PARAM_MAX)).max(100).optional().default([]),
});
export type TemplateParams = z.infer<typeof templateParamsSchema>;

// What is missing for these values to fit the template: one entry per parameter without a value,
// under the form's field for the values (templateParams in campaigns, params in the inbox).
export const templateParamIssues = (
  shape: TemplateShape,
  params: TemplateParams,
  field = 'templateParams',
) => {
  const issues: { path: string; message: string }[] = [];
  const check = (part: 'header' | 'body', names: string[]) =>
    names.forEach((_, index) => {
      if (!(params[part][index] ?? '').trim())
        issues.push({ path: `${field}.${part}.${index}`, message: 'Campo Obligatorio' });
    });
  check('header', shape.headerParams);
  check('body', shape.bodyParams);
  return issues;
};

// The text a template makes with these values (what the chat history shows).
export const renderTemplate = (shape: TemplateShape, params: TemplateParams) => {
  const fill = (text: string, names: string[], values: string[]) =>
    text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) => {
      const index = names.indexOf(name);
      return index >= 0 && values[index] !== undefined ? values[index] : whole;
    });
  return [
    shape.headerFormat === 'TEXT'
      ? `*${fill(shape.headerText, shape.headerParams, params.header)}*`
      : '',
    fill(shape.bodyText, shape.bodyParams, params.body),
    shape.footerText ? `_${shape.footerText}_` : '',
  ]
    .filter((part) => part.trim() !== '' && part !== '**')
    .join('\n\n');
};

// GET /whatsapp/{whatsappId}/templates and POST …/templates/sync.
export const templateViewSchema = z.object({
  id: z.number(),
  whatsappId: z.number(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string(),
  headerFormat: z.enum(templateHeaderFormats).nullable(),
  headerText: z.string(),
  bodyText: z.string(),
  footerText: z.string(),
  buttons: z.array(z.string()),
  headerParams: z.array(z.string()),
  bodyParams: z.array(z.string()),
  updatedAt: dateTime,
});
export type TemplateView = z.input<typeof templateViewSchema>;

export const templateListSchema = z.object({
  templates: z.array(templateViewSchema),
  // When the copy was last refreshed from the Graph API (null: never).
  syncedAt: dateTime.nullable(),
});
export type TemplateList = z.input<typeof templateListSchema>;

// POST /messages/{ticketId}/template: an approved template of the ticket's connection, with its values.
export const templateSendSchema = z.object({
  templateId: z.coerce.number().int().positive(),
  params: templateParamsSchema.optional().default({ header: [], body: [] }),
});
export type TemplateSendInput = z.infer<typeof templateSendSchema>;

// Whether the contact's 24-hour window is open on a Cloud API ticket (null on other connections,
// which have no such rule). closesAt is null when the contact never wrote on this number.
export const replyWindowSchema = z.object({
  open: z.boolean(),
  closesAt: dateTime.nullable(),
});
export type ReplyWindow = z.input<typeof replyWindowSchema>;

// The window as it stands at `now`, from the contact's last message.
export const replyWindowAt = (lastInboundAt: Date | string | null, now = new Date()) => {
  if (lastInboundAt === null) return { open: false, closesAt: null };
  const closesAt = new Date(new Date(lastInboundAt).getTime() + REPLY_WINDOW_MS);
  return { open: closesAt.getTime() > now.getTime(), closesAt: closesAt.toISOString() };
};
