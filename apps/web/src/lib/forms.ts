import { useTranslation } from 'react-i18next';
import type { FieldErrors, FieldValues, Path, UseFormRegister } from 'react-hook-form';

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
