import type { ReactNode } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';
import {
  get,
  type FieldError,
  type FieldValues,
  type FormState,
  type Path,
  type UseFormRegister,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';

type FormTextProps<T extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'error' | 'helperText' | 'inputRef' | 'value' | 'onChange' | 'onBlur'
> & {
  // The form (useForm's answer) the field belongs to.
  form: { register: UseFormRegister<T>; formState: FormState<NoInfer<T>> };
  name: Path<T>;
  // Under the field while it has no error.
  hint?: ReactNode;
};

// The one text field of a form: as wide as its place, no browser suggestions unless asked
// (autoComplete), and under it its error (an i18n key: the form's rule or the API's refusal) or else
// its hint.
export const FormText = <T extends FieldValues>({
  form,
  name,
  hint,
  ...props
}: FormTextProps<T>) => {
  const { t } = useTranslation();
  const { ref, ...field } = form.register(name);
  const message = (get(form.formState.errors, name) as FieldError | undefined)?.message;
  return (
    <TextField
      {...field}
      inputRef={ref}
      fullWidth
      autoComplete="off"
      {...props}
      error={Boolean(message)}
      helperText={message ? t(message) : hint}
    />
  );
};

// A message the contact will read (a greeting, the out-of-hours answer…): a few lines, growing.
export const MessageField = <T extends FieldValues>(props: FormTextProps<T>) => (
  <FormText multiline minRows={2} maxRows={8} {...props} />
);

// A password or secret being set: hidden as typed, never filled in from the browser's saved logins.
export const PasswordField = <T extends FieldValues>(props: FormTextProps<T>) => (
  <FormText type="password" autoComplete="new-password" {...props} />
);
