import type { ComponentType, Ref } from 'react';
import { CircularProgress, MenuItem, TextField } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

type RecordChoice = { id: number; name: string };

// What a form gives the select (react-hook-form's field), the value being the id as text.
export type RecordSelectFieldProps = {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  name?: string;
  helperText?: string;
  error?: boolean;
  disabled?: boolean;
};

// A select of the company's records of one kind (AI agents, integrations) for connections and queues:
// '' is none; a saved id the list does not hold (not loaded, or gone) is kept and shown by number.
// `texts` is an i18n key with label, none, unknown and loading.
export const RecordSelect = ({
  choices,
  texts,
  value,
  onChange,
  onBlur,
  inputRef,
  name,
  helperText,
  error,
  disabled,
}: RecordSelectFieldProps & {
  choices: UseQueryResult<RecordChoice[]>;
  texts: 'promptSelect' | 'outOfHoursPromptSelect' | 'integrationSelect';
}) => {
  const { t } = useTranslation();
  const isListed = value === '' || choices.data?.some((choice) => String(choice.id) === value);
  return (
    <TextField
      select
      name={name}
      label={t(`${texts}.label`)}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      inputRef={inputRef}
      fullWidth
      disabled={disabled}
      error={error}
      helperText={helperText}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{t(`${texts}.none`)}</MenuItem>
      {(choices.data ?? []).map((choice) => (
        <MenuItem key={choice.id} value={String(choice.id)}>
          {choice.name}
        </MenuItem>
      ))}
      {!isListed && <MenuItem value={value}>{t(`${texts}.unknown`, { id: value })}</MenuItem>}
      {choices.isPending && (
        <MenuItem disabled>
          <CircularProgress size={18} sx={{ mr: 1 }} />
          {t(`${texts}.loading`)}
        </MenuItem>
      )}
    </TextField>
  );
};

export type RecordFieldProps<T extends FieldValues, Sent extends FieldValues> = {
  // Whatever the form sends once its resolver ran (Sent) is not this field's business.
  control: Control<T, unknown, Sent>;
  name: FieldPathByValue<T, string>;
  // Under the field while it has no error.
  hint: string;
};

// A record select in its form: the field's error (an i18n key) under it, or else its hint.
export const RecordField = <T extends FieldValues, Sent extends FieldValues>({
  control,
  name,
  hint,
  Select,
}: RecordFieldProps<T, Sent> & { Select: ComponentType<RecordSelectFieldProps> }) => {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, ...field }, fieldState: { error } }) => (
        <Select
          {...field}
          inputRef={ref}
          error={Boolean(error)}
          helperText={error?.message ? t(error.message) : hint}
        />
      )}
    />
  );
};
