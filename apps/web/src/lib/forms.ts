import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  FieldErrors,
  FieldPathByValue,
  FieldValues,
  PathValue,
  UseFormGetValues,
  UseFormRegister,
  UseFormSetValue,
  Path,
} from 'react-hook-form';

// MUI TextField wants the input ref on inputRef, not ref (which lands on the wrapper).
export const registerMui = <T extends FieldValues>(register: UseFormRegister<T>, name: Path<T>) => {
  const { ref, ...field } = register(name);
  return { ...field, inputRef: ref };
};

// The props that show a field's error (an i18n key) under it, in place of its hint.
export const useFieldError = <T extends FieldValues>(errors: FieldErrors<T>) => {
  const { t } = useTranslation();
  return (name: keyof T & string, hint?: string) => {
    const message = errors[name]?.message;
    return {
      error: Boolean(message),
      helperText: typeof message === 'string' && message ? t(message) : hint,
    };
  };
};

// A pick-one field of ids as text ('' none yet) takes the first choice once the list arrives, unless
// one was already chosen (the plan of a sign-up or a new company).
export const useFirstChoice = <T extends FieldValues>(
  form: { getValues: UseFormGetValues<T>; setValue: UseFormSetValue<T> },
  name: FieldPathByValue<T, string>,
  choices: readonly { id: number }[] | undefined,
) => {
  const firstId = choices?.[0]?.id;
  const { getValues, setValue } = form;
  useEffect(() => {
    if (firstId !== undefined && !getValues(name))
      setValue(name, String(firstId) as PathValue<T, typeof name>);
  }, [firstId, getValues, setValue, name]);
};
