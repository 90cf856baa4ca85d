import { Box, Button, Grid, Paper, Stack, TextField, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { weekdays, type ScheduleSlot } from '@atendi/shared';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { toastError } from '../../api/toasts';
import { LoadingBox } from './shared/loading-box';
import { useOwnCompany, useSaveCompanySchedules } from './settings.api';
import { waitBeforeSubmit } from './shared/form-delay';
import { isTimeOrEmpty, maskTime } from './time-mask';

const time = z.string().refine(isTimeOrEmpty, 'settings.schedules.invalidTime');
const schedulesFormSchema = z.object({
  schedules: z.array(
    z.object({
      weekday: z.string(),
      weekdayEn: z.string(),
      startTime: time,
      endTime: time,
    }),
  ),
});
type SchedulesFormValues = z.infer<typeof schedulesFormSchema>;

// Every weekday once, in order, with what the company saved for it (blank when nothing).
const slotsFor = (saved: ScheduleSlot[]): ScheduleSlot[] =>
  weekdays.map(({ weekday, weekdayEn }) => {
    const slot = saved.find((item) => item.weekdayEn === weekdayEn);
    return {
      weekday,
      weekdayEn,
      startTime: slot?.startTime ?? '',
      endTime: slot?.endTime ?? '',
    };
  });

const SchedulesForm = ({ companyId, saved }: { companyId: number; saved: ScheduleSlot[] }) => {
  const { t } = useTranslation();
  const save = useSaveCompanySchedules(companyId);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<SchedulesFormValues>({
    resolver: zodResolver(schedulesFormSchema),
    defaultValues: { schedules: slotsFor(saved) },
  });
  const { fields } = useFieldArray({ control, name: 'schedules' });

  const onSubmit = async (values: SchedulesFormValues) => {
    await waitBeforeSubmit();
    try {
      await save.mutateAsync(values.schedules as ScheduleSlot[]);
      toast.success(t('settings.schedules.saved'));
    } catch (error) {
      toastError(error);
    }
  };

  const timeField = (index: number, name: 'startTime' | 'endTime', weekdayLabel: string) => (
    <Controller
      control={control}
      name={`schedules.${index}.${name}`}
      render={({ field: { ref, onChange, ...field }, fieldState }) => (
        <TextField
          {...field}
          inputRef={ref}
          onChange={(event) => onChange(maskTime(event.target.value))}
          label={t(`settings.schedules.${name}`)}
          placeholder="HH:MM"
          size="small"
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ? t(fieldState.error.message) : undefined}
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              maxLength: 5,
              'aria-label': `${t(`settings.schedules.${name}`)} ${weekdayLabel}`,
            },
          }}
          fullWidth
        />
      )}
    />
  );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit(onSubmit)}>
        <Typography color="text.secondary">{t('settings.schedules.intro')}</Typography>
        {fields.map((slot, index) => {
          const weekdayLabel = t(`settings.weekdays.${slot.weekdayEn}`);
          return (
            <Grid key={slot.id} container spacing={2}>
              <Grid size={{ xs: 12, sm: 4 }}>
                <TextField
                  value={weekdayLabel}
                  label={t('settings.schedules.weekday')}
                  size="small"
                  fullWidth
                  slotProps={{ htmlInput: { readOnly: true } }}
                />
              </Grid>
              <Grid size={{ xs: 6, sm: 4 }}>{timeField(index, 'startTime', weekdayLabel)}</Grid>
              <Grid size={{ xs: 6, sm: 4 }}>{timeField(index, 'endTime', weekdayLabel)}</Grid>
            </Grid>
          );
        })}
        <Box>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('common.save')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
};

export const CompanySchedulesTab = ({ companyId }: { companyId: number }) => {
  const company = useOwnCompany(companyId);
  if (!company.data) return company.isPending ? <LoadingBox /> : null;
  return <SchedulesForm companyId={companyId} saved={company.data.schedules ?? []} />;
};
