import type {
  FieldValues,
  Path,
  SubmitErrorHandler,
  UseFormHandleSubmit,
  UseFormSetError,
} from 'react-hook-form';
import { toast } from 'react-toastify';
import { ApiError } from '../api/http-client';
import { toastError } from '../api/toasts';
import { waitBeforeSubmit } from '../lib/form-delay';
import { useDialogSaved } from './dialog-frame';

// A field and the text (an i18n key) to show under it.
export type FieldText<T extends FieldValues> = readonly [field: Path<T>, text: string];

type SaveOptions<T extends FieldValues, TInput, TSaved> = {
  // Sends what the form holds (after SPEC §9's pause); what it answers goes to onSaved.
  save: (input: TInput) => Promise<TSaved>;
  // The success toast: the thing and what happened to it, e.g. "Cola guardada."
  savedText: string;
  // After the toast. Unless given, the dialog closes (a dialog that stays open does so here).
  onSaved?: (saved: TSaved) => void;
  // Error codes that belong to one field, said under it: the code's own text (errors.<code>), or
  // the text given.
  codes?: Partial<Record<string, Path<T> | FieldText<T>>>;
  // The form's fields a refusal names (its `fields`), each with its text.
  fields?: (error: ApiError) => FieldText<T>[];
  // Told which fields a refusal marked, the first one focused (e.g. to show the tab holding it).
  onFieldErrors?: (fields: Path<T>[]) => void;
  // A refusal the form shows its own way (an alert in it); answers whether it did.
  onRefused?: (error: ApiError) => boolean;
  // How any other failure is said: a toast with the API's text unless told otherwise.
  toastError?: (error: unknown) => void;
  // For handleSubmit: fields the form's own rules refused.
  onInvalid?: SubmitErrorHandler<T>;
  // SPEC §9's pause before sending: 400 ms unless told (ADMIN_FORM_SUBMIT_DELAY_MS).
  delayMs?: number;
  // Answers true for a problem the form shows itself beyond its rules (a file it refuses, a
  // template that cannot be sent): then nothing is sent.
  isBlocked?: (input: TInput) => boolean;
};

type SaveForm<T extends FieldValues, TInput> = {
  handleSubmit: UseFormHandleSubmit<T, TInput>;
  setError: UseFormSetError<T>;
  formState: { isSubmitting: boolean };
};

// The one way a dialog's form saves (issue 34): it waits SPEC §9's pause, sends, and once saved
// toasts what was saved and closes the dialog. A refusal that belongs to fields is said under them
// (the first focused); any other is a toast with the API's text, and the form stays as it was typed.
// Answers DialogForm's onSubmit and isSubmitting.
export const useDialogSave = <T extends FieldValues, TInput = T, TSaved = unknown>(
  form: SaveForm<T, TInput>,
  options: SaveOptions<T, TInput, TSaved>,
) => {
  const closeSaved = useDialogSaved();

  const fieldTexts = (error: ApiError): readonly FieldText<T>[] => {
    const byCode = error.code ? options.codes?.[error.code] : undefined;
    if (typeof byCode === 'string') return [[byCode, `errors.${error.code}`]];
    if (byCode) return [byCode];
    return options.fields?.(error) ?? [];
  };

  const refuse = (error: unknown) => {
    if (error instanceof ApiError) {
      if (options.onRefused?.(error)) return;
      const named = fieldTexts(error);
      if (named.length > 0) {
        named.forEach(([field, message], index) =>
          form.setError(field, { type: 'server', message }, { shouldFocus: index === 0 }),
        );
        options.onFieldErrors?.(named.map(([field]) => field));
        return;
      }
    }
    (options.toastError ?? toastError)(error);
  };

  const submit = async (input: TInput) => {
    if (options.isBlocked?.(input)) return;
    await (options.delayMs === undefined ? waitBeforeSubmit() : waitBeforeSubmit(options.delayMs));
    let saved: TSaved;
    try {
      saved = await options.save(input);
    } catch (error) {
      refuse(error);
      return;
    }
    toast.success(options.savedText);
    if (options.onSaved) options.onSaved(saved);
    else closeSaved();
  };

  return {
    onSubmit: form.handleSubmit(submit, options.onInvalid),
    isSubmitting: form.formState.isSubmitting,
  };
};

// A 400 naming some of the form's fields (`fields`: { name: [...] }) marks each with "Revise los datos
// del formulario." when the form has no finer text for them.
export const namedFields =
  <T extends FieldValues>(formFields: readonly Path<T>[]) =>
  (error: ApiError): FieldText<T>[] =>
    formFields
      .filter((field) => error.fields?.[field])
      .map((field) => [field, 'errors.ERR_VALIDATION'] as const);
