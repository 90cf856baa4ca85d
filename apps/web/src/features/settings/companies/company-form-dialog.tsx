import { Grid, MenuItem } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { companyStatuses } from '@atendi/shared';
import { Controller, useForm } from 'react-hook-form';
import { DateField } from '../../../components/date-field';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useDialogSave } from '../../../components/dialog-save';
import { SelectField } from '../../../components/select-field';
import { ADMIN_FORM_SUBMIT_DELAY_MS } from '../../../lib/form-delay';
import { requiredEmail } from '../../../lib/form-rules';
import { useFieldError, useFirstChoice } from '../../../lib/forms';
import { FormText } from '../../../components/form-text';
import { usePlans } from '../plans/plans.api';
import { toastOperationError } from '../shared/admin-errors';
import {
  useCreateCompany,
  useUpdateCompany,
  type Company,
  type CompanyInput,
  type CreatedCompany,
} from './companies.api';
import { fromDateInput, toDateInput } from './date-input';
import { SwitchField } from '../../../components/switch-field';
import { DialogForm, DialogFrame } from '../../../components/dialog-frame';

// SPEC §4: the form offers only the monthly recurrence.
const offeredRecurrences = ['MENSAL'] as const;

// SPEC §5 Company: email and plan required; an empty due date is sent as null.
const companyFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .min(2, 'settings.companies.nameLength')
    .max(100, 'settings.companies.nameLength'),
  email: requiredEmail,
  phone: z.string().trim().max(20, 'settings.companies.phoneLength'),
  planId: z.string().min(1, 'validation.required'),
  status: z.enum(companyStatuses),
  dueDate: z.string(),
  recurrence: z.enum(offeredRecurrences),
  campaignsEnabled: z.boolean(),
});
type CompanyFormValues = z.infer<typeof companyFormSchema>;

const initialValues = (company: Company | null): CompanyFormValues => ({
  name: company?.name ?? '',
  email: company?.email ?? '',
  phone: company?.phone ?? '',
  planId: company ? String(company.planId) : '',
  status: company?.status ?? 'active',
  dueDate: toDateInput(company?.dueDate),
  recurrence: 'MENSAL',
  campaignsEnabled: company?.campaignsEnabled ?? false,
});

const CompanyForm = ({
  company,
  onCreated,
}: {
  company: Company | null;
  onCreated: (company: CreatedCompany) => void;
}) => {
  const { t } = useTranslation();
  const plans = usePlans();
  const create = useCreateCompany();
  const update = useUpdateCompany();
  const defaults = initialValues(company);
  const form = useForm<CompanyFormValues>({
    resolver: zodResolver(companyFormSchema),
    defaultValues: defaults,
  });
  const { control } = form;
  useFirstChoice(form, 'planId', plans.data);

  const save = useDialogSave(form, {
    save: async (values) => {
      const input: CompanyInput = {
        ...values,
        planId: Number(values.planId),
        dueDate: fromDateInput(values.dueDate),
      };
      if (!company) return create.mutateAsync(input);
      // An untouched due date keeps its exact time instead of becoming that day's midnight.
      const { dueDate, ...rest } = input;
      await update.mutateAsync({
        id: company.id,
        ...rest,
        ...(values.dueDate !== defaults.dueDate ? { dueDate } : {}),
      });
      return null;
    },
    savedText: t('settings.companies.saved'),
    // A new company's admin password is shown next, once.
    onSaved: company ? undefined : (created) => created && onCreated(created),
    toastError: toastOperationError,
    delayMs: ADMIN_FORM_SUBMIT_DELAY_MS,
  });

  const fieldError = useFieldError(form.formState.errors);

  return (
    <DialogForm
      title={t(company ? 'settings.companies.editTitle' : 'settings.companies.addTitle')}
      {...save}
      submitLabel={t('common.save')}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormText form={form} name="name" label={t('settings.companies.name')} autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormText form={form} name="email" type="email" label={t('settings.companies.email')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormText
            form={form}
            name="phone"
            type="tel"
            label={t('settings.companies.phone')}
            slotProps={{ htmlInput: { maxLength: 20 } }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField
            control={control}
            name="planId"
            label={t('settings.companies.plan')}
            disabled={plans.isPending}
            {...fieldError('planId')}
          >
            {(plans.data ?? []).map((plan) => (
              <MenuItem key={plan.id} value={String(plan.id)}>
                {plan.name}
              </MenuItem>
            ))}
          </SelectField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField control={control} name="status" label={t('settings.companies.status')}>
            {companyStatuses.map((status) => (
              <MenuItem key={status} value={status}>
                {t(`settings.companies.statuses.${status}`)}
              </MenuItem>
            ))}
          </SelectField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Controller
            name="dueDate"
            control={control}
            render={({ field }) => (
              <DateField
                kind="date"
                label={t('settings.companies.dueDate')}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                name={field.name}
                fullWidth
                helperText={t('settings.companies.dueDateHint')}
              />
            )}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField
            control={control}
            name="recurrence"
            label={t('settings.companies.recurrence')}
          >
            {offeredRecurrences.map((recurrence) => (
              <MenuItem key={recurrence} value={recurrence}>
                {t(`settings.companies.recurrences.${recurrence}`)}
              </MenuItem>
            ))}
          </SelectField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }} sx={{ display: 'flex', alignItems: 'center' }}>
          <SwitchField
            control={control}
            name="campaignsEnabled"
            label={t('settings.companies.campaignsEnabled')}
          />
        </Grid>
      </Grid>
    </DialogForm>
  );
};

export const CompanyFormDialog = ({
  open,
  company,
  onClose,
  onCreated,
}: {
  open: boolean;
  company: Company | null;
  onClose: () => void;
  onCreated: (company: CreatedCompany) => void;
}) => (
  <DialogFrame open={open} onClose={onClose}>
    {open && <CompanyForm company={company} onCreated={onCreated} />}
  </DialogFrame>
);
