import { Stack, TextField, Typography } from '@mui/material';
import { Controller, type Control, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { maskTime, type QueueFormValues } from './queue-form.schema';

// SPEC §5 Queue schedules: one row per weekday, the weekday read-only, hours masked as HH:MM.
export const SchedulesEditor = ({
  control,
  errors,
  rows,
}: {
  control: Control<QueueFormValues>;
  errors: FieldErrors<QueueFormValues>['schedules'];
  rows: QueueFormValues['schedules'];
}) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('queues.form.schedulesHint')}
      </Typography>
      {rows.map((row, index) => {
        const dayName = t(`queues.weekdays.${row.weekdayEn}`);
        const timeField = (field: 'startTime' | 'endTime', label: string) => (
          <Controller
            name={`schedules.${index}.${field}`}
            control={control}
            render={({ field: { ref, value, onChange, onBlur, name } }) => {
              const message = errors?.[index]?.[field]?.message;
              return (
                <TextField
                  name={name}
                  inputRef={ref}
                  value={value}
                  onBlur={onBlur}
                  onChange={(event) => onChange(maskTime(event.target.value))}
                  label={label}
                  size="small"
                  placeholder="HH:MM"
                  error={Boolean(message)}
                  helperText={message ? t(message) : undefined}
                  sx={{ flex: 1 }}
                  slotProps={{
                    htmlInput: {
                      inputMode: 'numeric',
                      maxLength: 5,
                      'aria-label': `${label} · ${dayName}`,
                    },
                  }}
                />
              );
            }}
          />
        );
        return (
          <Stack key={row.weekdayEn} direction="row" spacing={1.5} alignItems="flex-start">
            <TextField
              label={t('queues.form.weekday')}
              value={dayName}
              size="small"
              sx={{ flex: 1.2 }}
              slotProps={{ input: { readOnly: true } }}
            />
            {timeField('startTime', t('queues.form.startTime'))}
            {timeField('endTime', t('queues.form.endTime'))}
          </Stack>
        );
      })}
    </Stack>
  );
};
