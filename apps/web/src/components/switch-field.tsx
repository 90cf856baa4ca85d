import type { ReactNode } from 'react';
import { FormControlLabel, Switch, type SxProps, type Theme } from '@mui/material';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';

// A yes/no field of a form: a switch and its label, holding a boolean.
export const SwitchField = <T extends FieldValues, Sent extends FieldValues>({
  control,
  name,
  label,
  disabled,
  sx,
}: {
  // Whatever the form sends once its resolver ran (Sent) is not this field's business.
  control: Control<T, unknown, Sent>;
  name: FieldPathByValue<T, boolean>;
  label: ReactNode;
  disabled?: boolean;
  sx?: SxProps<Theme>;
}) => (
  <Controller
    name={name}
    control={control}
    render={({ field: { ref, value, onChange, ...field } }) => (
      <FormControlLabel
        sx={sx}
        disabled={disabled}
        control={
          <Switch
            {...field}
            slotProps={{ input: { ref } }}
            checked={Boolean(value)}
            onChange={(event) => onChange(event.target.checked)}
          />
        }
        label={label}
      />
    )}
  />
);
