import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldError, Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  PROMPT_DEFAULTS,
  promptSchema,
  type PromptInput,
  type PromptKnowledge,
  type PromptView,
} from '@atendi/shared';
import { ApiError } from '../../api/http-client';

// What the inputs hold: numbers as typed, the queue as a select's value ('' for none).
export type PromptFormValues = {
  name: string;
  prompt: string;
  model: string;
  maxTokens: string;
  temperature: number;
  maxMessages: string;
  queueId: string;
  handoffMessage: string;
  knowledge: PromptKnowledge;
  knowledgeDocumentIds: number[];
};
export type PromptFormField = keyof PromptFormValues;

const promptFormFields: PromptFormField[] = [
  'name',
  'prompt',
  'model',
  'maxTokens',
  'temperature',
  'maxMessages',
  'queueId',
  'handoffMessage',
  'knowledge',
  'knowledgeDocumentIds',
];

// SPEC §9 defaults for a new agent.
export const promptFormDefaults = (prompt: PromptView | null): PromptFormValues => ({
  name: prompt?.name ?? '',
  prompt: prompt?.prompt ?? '',
  model: prompt?.model ?? PROMPT_DEFAULTS.model,
  maxTokens: String(prompt?.maxTokens ?? PROMPT_DEFAULTS.maxTokens),
  temperature: prompt?.temperature ?? PROMPT_DEFAULTS.temperature,
  maxMessages: String(prompt?.maxMessages ?? PROMPT_DEFAULTS.maxMessages),
  queueId: prompt?.queueId ? String(prompt.queueId) : '',
  handoffMessage: prompt?.handoffMessage ?? PROMPT_DEFAULTS.handoffMessage,
  knowledge: prompt?.knowledge ?? 'none',
  knowledgeDocumentIds: prompt?.knowledgeDocuments.map((d) => d.id) ?? [],
});

const toPromptBody = (values: PromptFormValues) => ({
  ...values,
  queueId: values.queueId === '' ? null : Number(values.queueId),
  // Documents are kept only for an agent that reads the selected ones.
  knowledgeDocumentIds: values.knowledge === 'selected' ? values.knowledgeDocumentIds : [],
});

// SPEC §5 Prompt, checked by the shared schema on the body the form would send.
export const promptResolver: Resolver<PromptFormValues, unknown, PromptInput> = zodResolver(
  z.preprocess((values: PromptFormValues) => toPromptBody(values), promptSchema),
);

// What each field's rule asks for, as an i18n key.
const ruleKeys: Record<PromptFormField, string> = {
  name: 'prompts.validation.nameLength',
  prompt: 'prompts.validation.promptTooShort',
  model: 'prompts.validation.model',
  maxTokens: 'prompts.validation.maxTokens',
  temperature: 'prompts.validation.temperature',
  maxMessages: 'prompts.validation.maxMessages',
  queueId: 'errors.ERR_VALIDATION',
  handoffMessage: 'prompts.validation.handoffMessage',
  knowledge: 'errors.ERR_VALIDATION',
  knowledgeDocumentIds: 'prompts.validation.knowledgeDocuments',
};

// The shared schema's messages are for API callers: the form names each problem in the reader's
// language from the field and the kind of problem. One the API found carries its own key.
export const fieldErrorKey = (
  field: PromptFormField,
  error: FieldError,
  values: PromptFormValues,
) => {
  if (error.type === 'server' && error.message) return error.message;
  const value = values[field];
  // The queue and the hand-off message may be left empty.
  if (
    typeof value === 'string' &&
    !value.trim() &&
    field !== 'queueId' &&
    field !== 'handoffMessage'
  )
    return 'validation.required';
  if (field === 'prompt' && error.type === 'too_big') return 'prompts.validation.promptTooLong';
  return ruleKeys[field];
};

// A refused save's field errors (ERR_VALIDATION fields: { path: [messages] }) as the form's keys:
// an error code the API names (queueId: ERR_NO_QUEUE_FOUND) is translated as such.
export const serverFieldErrors = (
  error: unknown,
  hasText: (key: string) => boolean,
): [PromptFormField, string][] => {
  if (!(error instanceof ApiError) || !error.fields) return [];
  return promptFormFields.flatMap((field) => {
    const messages = error.fields?.[field];
    if (!messages?.length) return [];
    const codeKey = `errors.${messages[0]}`;
    return [[field, hasText(codeKey) ? codeKey : ruleKeys[field]] as [PromptFormField, string]];
  });
};
