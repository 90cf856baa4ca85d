import type { FieldError } from 'react-hook-form';
import { ApiError } from '../../api/http-client';

export type FormField = 'name' | 'number' | 'email';

// What a field's rule asks for (SPEC §5 Contact list, Contact list item), as an i18n key.
const ruleKeys: Record<FormField, string> = {
  name: 'validation.nameLength',
  number: 'contactLists.validation.number',
  email: 'validation.email',
};

// The shared schemas' messages are for API callers; the dialogs name each problem in the reader's
// language from the field and what it holds. A problem the API found carries its own key.
export const fieldErrorKey = (field: FormField, error: FieldError, value: string) => {
  if (error.type === 'server' && error.message) return error.message;
  if (field !== 'email' && !value.trim()) return 'validation.required';
  return ruleKeys[field];
};

// A 400 naming fields of the form puts the rule under each of them (useDialogSave's fields).
export const ruleErrors =
  <F extends FormField>(fields: readonly F[]) =>
  (error: ApiError): [F, string][] =>
    error.code === 'ERR_VALIDATION'
      ? fields.filter((field) => error.fields?.[field]).map((field) => [field, ruleKeys[field]])
      : [];
