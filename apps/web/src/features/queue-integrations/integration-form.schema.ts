import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  INTEGRATION_DEFAULTS,
  integrationProblems,
  integrationSchema,
  type IntegrationInput,
  type IntegrationType,
  type IntegrationView,
} from '@atendi/shared';
import { ApiError } from '../../api/http-client';

// What the inputs hold: numbers as typed; the key is only what is typed now (the API never sends it).
export type IntegrationFormValues = {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: string;
  typebotDelayMessage: string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
};
export type IntegrationFormField = keyof IntegrationFormValues;

type TypeField = Exclude<IntegrationFormField, 'type' | 'name'>;

// The fields each type uses, in the order the form shows them.
export const fieldsOfType: Record<IntegrationType, TypeField[]> = {
  typebot: [
    'urlN8N',
    'typebotSlug',
    'typebotExpires',
    'typebotDelayMessage',
    'typebotKeywordFinish',
    'typebotKeywordRestart',
    'typebotUnknownMessage',
    'typebotRestartMessage',
  ],
  n8n: ['urlN8N'],
  webhook: ['urlN8N'],
  dialogflow: ['projectName', 'language', 'jsonContent'],
};

const formFields: IntegrationFormField[] = [
  'type',
  'name',
  ...new Set(Object.values(fieldsOfType).flat()),
];

// Receivers of posted events check their signature with the integration's secret.
export const postsEvents = (type: IntegrationType) => type === 'n8n' || type === 'webhook';

// SPEC §9 defaults for a new integration; a new one starts as a Typebot flow.
export const integrationFormDefaults = (
  integration: IntegrationView | null,
): IntegrationFormValues => ({
  type: integration?.type ?? 'typebot',
  name: integration?.name ?? '',
  projectName: integration?.projectName ?? '',
  jsonContent: '',
  language: integration?.language ?? '',
  urlN8N: integration?.urlN8N ?? '',
  typebotSlug: integration?.typebotSlug ?? '',
  typebotExpires: String(integration?.typebotExpires ?? INTEGRATION_DEFAULTS.typebotExpires),
  typebotDelayMessage: String(
    integration?.typebotDelayMessage ?? INTEGRATION_DEFAULTS.typebotDelayMessage,
  ),
  typebotKeywordFinish: integration?.typebotKeywordFinish ?? '',
  typebotKeywordRestart: integration?.typebotKeywordRestart ?? '',
  typebotUnknownMessage: integration?.typebotUnknownMessage ?? '',
  typebotRestartMessage: integration?.typebotRestartMessage ?? '',
});

// A blank number is no number (Number('') would quietly be 0).
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

// The body the form would send: another type's fields go blank, or back to their defaults.
const toIntegrationBody = (values: IntegrationFormValues): IntegrationInput => {
  const uses = (field: TypeField) => fieldsOfType[values.type].includes(field);
  const text = (field: Exclude<TypeField, 'typebotExpires' | 'typebotDelayMessage'>) =>
    uses(field) ? values[field] : '';
  const number = (field: 'typebotExpires' | 'typebotDelayMessage') =>
    uses(field) ? numberOf(values[field]) : INTEGRATION_DEFAULTS[field];
  return {
    name: values.name,
    type: values.type,
    projectName: text('projectName'),
    jsonContent: text('jsonContent'),
    language: text('language'),
    urlN8N: text('urlN8N'),
    typebotSlug: text('typebotSlug'),
    typebotExpires: number('typebotExpires'),
    typebotDelayMessage: number('typebotDelayMessage'),
    typebotKeywordFinish: text('typebotKeywordFinish'),
    typebotKeywordRestart: text('typebotKeywordRestart'),
    typebotUnknownMessage: text('typebotUnknownMessage'),
    typebotRestartMessage: text('typebotRestartMessage'),
  };
};

// What each field's rule asks for, as an i18n key, when the value breaks it.
const ruleKeys: Record<IntegrationFormField, string> = {
  type: 'errors.ERR_VALIDATION',
  name: 'queueIntegrations.validation.nameLength',
  projectName: 'queueIntegrations.validation.tooLong',
  jsonContent: 'queueIntegrations.validation.tooLong',
  language: 'queueIntegrations.validation.tooLong',
  urlN8N: 'queueIntegrations.validation.url',
  typebotSlug: 'queueIntegrations.validation.tooLong',
  typebotExpires: 'queueIntegrations.validation.expires',
  typebotDelayMessage: 'queueIntegrations.validation.delay',
  typebotKeywordFinish: 'queueIntegrations.validation.tooLong',
  typebotKeywordRestart: 'queueIntegrations.validation.tooLong',
  typebotUnknownMessage: 'queueIntegrations.validation.tooLong',
  typebotRestartMessage: 'queueIntegrations.validation.tooLong',
};

const isFormField = (name: PropertyKey): name is IntegrationFormField =>
  typeof name === 'string' && (formFields as string[]).includes(name);

// The shared schema's messages are for API callers: the form names each problem in the reader's
// language from the field and the kind of problem (SPEC §5: 'Muy Corto', 'Muy Largo').
const issueKey = (field: IntegrationFormField, code: string, values: IntegrationFormValues) => {
  const value = values[field];
  if (typeof value === 'string' && !value.trim()) return 'errors.ERR_REQUIRED';
  if (field === 'name' && code === 'too_small') return 'queueIntegrations.validation.nameTooShort';
  if (field === 'name' && code === 'too_big') return 'queueIntegrations.validation.nameTooLong';
  return ruleKeys[field];
};

// SPEC §5 Queue integration: the shared schema, then the shared rule of what each type needs
// (integrationProblems, as the API checks it). A stored key lets an edit leave the key empty.
// Error messages are i18n keys.
export const integrationResolver =
  (hasStoredKey: boolean): Resolver<IntegrationFormValues, unknown, IntegrationInput> =>
  (values) => {
    const body = toIntegrationBody(values);
    const parsed = integrationSchema.safeParse(body);
    const errors: FieldErrors<IntegrationFormValues> = {};
    const add = (field: IntegrationFormField, type: string, message: string) => {
      errors[field] ??= { type, message };
    };
    parsed.error?.issues.forEach((issue) => {
      const [field] = issue.path;
      if (isFormField(field)) add(field, issue.code, issueKey(field, issue.code, values));
    });
    Object.entries(integrationProblems({ ...body, hasJsonContent: hasStoredKey })).forEach(
      ([field, [code]]) => {
        if (isFormField(field) && code) add(field, 'rule', `errors.${code}`);
      },
    );
    if (parsed.success && Object.keys(errors).length === 0)
      return { values: parsed.data, errors: {} };
    return { values: {}, errors };
  };

// A refused save's field errors (ERR_VALIDATION or ERR_INTEGRATION_NAME_EXISTS fields: { path:
// [messages] }) as the form's keys: an error code the API names is translated as such.
export const serverFieldErrors = (
  error: unknown,
  hasText: (key: string) => boolean,
): [IntegrationFormField, string][] => {
  if (!(error instanceof ApiError) || !error.fields) return [];
  return formFields.flatMap((field) => {
    const messages = error.fields?.[field];
    if (!messages?.length) return [];
    const codeKey = `errors.${messages[0]}`;
    return [
      [field, hasText(codeKey) ? codeKey : ruleKeys[field]] as [IntegrationFormField, string],
    ];
  });
};
