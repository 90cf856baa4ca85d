import { Fragment, memo } from 'react';
import { Box, Stack, TextField, Typography } from '@mui/material';
import { weekdays } from '@atendi/shared';
import { Controller, type Control, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { maskTime } from '../lib/schedules';

type ScheduleRow = { weekday: string; weekdayEn: string; startTime: string; endTime: string };

const SchedulesEditorRows = <T extends { schedules: ScheduleRow[] }>({
  control,
  hint,
}: {
  control: Control<T>;
  // What the hours mean where they are (above them).
  hint: string;
}) => {
  const { t } = useTranslation();

  const timeField = (index: number, field: 'startTime' | 'endTime', dayName: string) => {
    const label = t(`common.schedules.${field}`);
    return (
      <Controller
        control={control}
        name={`schedules.${index}.${field}` as Path<T>}
        render={({ field: { ref, onChange, ...props }, fieldState }) => (
          <TextField
            {...props}
            inputRef={ref}
            onChange={(event) => onChange(maskTime(event.target.value))}
            label={label}
            placeholder="HH:MM"
            size="small"
            fullWidth
            error={Boolean(fieldState.error)}
            helperText={fieldState.error?.message ? t(fieldState.error.message) : undefined}
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                maxLength: 5,
                'aria-label': `${label} ${dayName}`,
              },
            }}
          />
        )}
      />
    );
  };

  // One grid for all rows: weekday, start and end side by side; on a phone the weekday spans both.
  return (
    <Stack spacing={2}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {hint}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' },
        }}
      >
        {weekdays.map(({ weekdayEn }, index) => {
          const dayName = t(`common.weekdays.${weekdayEn}`);
          return (
            <Fragment key={weekdayEn}>
              <TextField
                value={dayName}
                label={t('common.schedules.weekday')}
                size="small"
                sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
                slotProps={{ input: { readOnly: true } }}
              />
              {timeField(index, 'startTime', dayName)}
              {timeField(index, 'endTime', dayName)}
            </Fragment>
          );
        })}
      </Box>
    </Stack>
  );
};

// SPEC §5 service hours: one row per weekday, the weekday read-only, hours masked as HH:MM.
// The form's `schedules` holds every weekday in order (scheduleRowsFor); each screen saves it its own way.
// Each hour field follows its own value and error, so the rows need not re-render with the form.
export const SchedulesEditor = memo(SchedulesEditorRows) as typeof SchedulesEditorRows;
