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

// A 400 naming fields of the form puts the rule under each of them; answers whether it did.
export const showFieldErrors = <F extends FormField>(
  error: unknown,
  fields: readonly F[],
  setError: (field: F, message: string) => void,
) => {
  if (!(error instanceof ApiError) || error.code !== 'ERR_VALIDATION' || !error.fields)
    return false;
  const named = fields.filter((field) => error.fields?.[field]);
  named.forEach((field) => setError(field, ruleKeys[field]));
  return named.length > 0;
};
