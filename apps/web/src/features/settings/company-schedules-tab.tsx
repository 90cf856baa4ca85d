import { useState } from 'react';
import { Autocomplete, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ScheduleSlot } from '@atendi/shared';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { toastError } from '../../api/toasts';
import { LoadingBox } from '../../components/loading-box';
import { SchedulesEditor } from '../../components/schedules-editor';
import { ADMIN_FORM_SUBMIT_DELAY_MS, waitBeforeSubmit } from '../../lib/form-delay';
import { scheduleRowsFor, scheduleRowsSchema } from '../../lib/schedules';
import { useOwnCompany } from '../../api/queries/companies';
import { useSaveCompanySchedules, useSaveCompanyTimeZone } from './settings.api';

const schedulesFormSchema = z.object({
  schedules: scheduleRowsSchema('settings.schedules.invalidTime'),
});
type SchedulesFormValues = z.infer<typeof schedulesFormSchema>;

const SchedulesForm = ({ companyId, saved }: { companyId: number; saved: ScheduleSlot[] }) => {
  const { t } = useTranslation();
  const save = useSaveCompanySchedules(companyId);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<SchedulesFormValues>({
    resolver: zodResolver(schedulesFormSchema),
    defaultValues: { schedules: scheduleRowsFor(saved) },
  });

  const onSubmit = async (values: SchedulesFormValues) => {
    await waitBeforeSubmit(ADMIN_FORM_SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync(values.schedules);
      toast.success(t('settings.schedules.saved'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack
        component="form"
        aria-label={t('settings.tabs.schedules')}
        noValidate
        spacing={2}
        onSubmit={handleSubmit(onSubmit)}
      >
        <SchedulesEditor control={control} hint={t('settings.schedules.intro')} />
        <Box>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('common.save')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
};

// Every zone the browser knows (IANA names), the saved one first if the browser lacks it.
const zoneChoices = (saved: string) => {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(saved) ? known : [saved, ...known];
};

// The zone business hours, SLA clocks, greetings, schedules and the dashboard's days are read in.
const TimeZoneForm = ({ companyId, saved }: { companyId: number; saved: string }) => {
  const { t } = useTranslation();
  const save = useSaveCompanyTimeZone(companyId);
  const [zone, setZone] = useState(saved);
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      await save.mutateAsync(zone);
      toast.success(t('settings.timeZone.saved'));
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack
        component="form"
        aria-label={t('settings.timeZone.label')}
        noValidate
        spacing={2}
        onSubmit={onSubmit}
      >
        <Typography variant="body2" color="text.secondary">
          {t('settings.timeZone.intro')}
        </Typography>
        <Autocomplete
          options={zoneChoices(saved)}
          value={zone}
          onChange={(_event, next) => next && setZone(next)}
          disableClearable
          sx={{ maxWidth: 420 }}
          renderInput={(params) => <TextField {...params} label={t('settings.timeZone.label')} />}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={save.isPending || zone === saved}>
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

// On the options tab: every company has a zone, whatever its business hours.
export const CompanyTimeZone = ({ companyId }: { companyId: number }) => {
  const company = useOwnCompany(companyId);
  if (!company.data?.timeZone) return null;
  return (
    <TimeZoneForm key={company.data.timeZone} companyId={companyId} saved={company.data.timeZone} />
  );
};
