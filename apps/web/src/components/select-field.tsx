import type { ReactNode } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

type SelectFieldProps<T extends FieldValues, Sent extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'select' | 'value' | 'onChange' | 'onBlur' | 'inputRef' | 'children'
> & {
  // Whatever the form sends once its resolver ran (Sent) is not this field's business.
  control: Control<T, unknown, Sent>;
  name: Path<T>;
  // The MenuItems: their values are what the field holds.
  children: ReactNode;
};

// A pick-one field of a form (plan, status, provider, type…): a select as wide as its place.
export const SelectField = <T extends FieldValues, Sent extends FieldValues>({
  control,
  name,
  children,
  ...props
}: SelectFieldProps<T, Sent>) => (
  <Controller
    name={name}
    control={control}
    render={({ field: { ref, ...field } }) => (
      <TextField {...field} inputRef={ref} select fullWidth {...props}>
        {children}
      </TextField>
    )}
  />
);
