import { Box, Button, Paper, Stack } from '@mui/material';
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
import { useSaveCompanySchedules } from './settings.api';

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
      <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit(onSubmit)}>
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

export const CompanySchedulesTab = ({ companyId }: { companyId: number }) => {
  const company = useOwnCompany(companyId);
  if (!company.data) return company.isPending ? <LoadingBox /> : null;
  return <SchedulesForm companyId={companyId} saved={company.data.schedules ?? []} />;
};
