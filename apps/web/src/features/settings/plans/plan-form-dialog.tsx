import { FormGroup, Grid, InputAdornment, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DEFAULT_PLAN_STORAGE_MB } from '@atendi/shared';
import { useDialogSave } from '../../../components/dialog-save';
import { ADMIN_FORM_SUBMIT_DELAY_MS } from '../../../lib/form-delay';
import { FormText } from '../../../components/form-text';
import { toastOperationError } from '../shared/admin-errors';
import { currencySymbol } from '../../../lib/money';
import { planFeatures, usePlans, useSavePlan, type Plan } from './plans.api';
import { SwitchField } from '../../../components/switch-field';
import { DialogForm, DialogFrame } from '../../../components/dialog-frame';

const MAX_LIMIT = 100_000;
const MAX_AI_MESSAGES = 10_000_000;
const MAX_AI_TOKENS = 2_000_000_000;
const MAX_VALUE = 1_000_000;
// MB, as POST /plans takes it (100 TB).
const MAX_STORAGE_MB = 100_000_000;

// A whole number from 0 to max, typed; `message` (an i18n key) says so otherwise.
const wholeUpTo = (max: number, message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, message)
    .refine((value) => Number(value) <= max, message);
const limit = wholeUpTo(MAX_LIMIT, 'settings.plans.wholeNumber');

const toNumber = (value: string) => Number(value.trim().replace(',', '.'));

// The payment provider's price id (price_…), the one POST /plans and PUT /plans/{id} accept; empty
// clears it.
const STRIPE_PRICE_ID = /^price_[A-Za-z0-9_]{1,200}$/;

const planFormSchema = z.object({
  name: z.string().trim().min(1, 'validation.required').max(100, 'settings.plans.nameLength'),
  users: limit,
  connections: limit,
  queues: limit,
  aiAgents: limit,
  aiMessages: wholeUpTo(MAX_AI_MESSAGES, 'settings.plans.aiMessagesInvalid'),
  aiTokens: wholeUpTo(MAX_AI_TOKENS, 'settings.plans.aiTokensInvalid'),
  storageMb: wholeUpTo(MAX_STORAGE_MB, 'settings.plans.storageMbInvalid'),
  value: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .refine((value) => {
      const number = toNumber(value);
      return Number.isFinite(number) && number >= 0 && number <= MAX_VALUE;
    }, 'settings.plans.invalidValue'),
  useCampaigns: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
  useSchedules: z.boolean(),
  useExternalApi: z.boolean(),
  stripePriceId: z
    .string()
    .trim()
    .refine(
      (value) => value === '' || STRIPE_PRICE_ID.test(value),
      'settings.plans.invalidPriceId',
    ),
});
type PlanFormValues = z.infer<typeof planFormSchema>;

// SPEC §9: a new plan starts with every feature on and every limit at 0 (unlimited), the AI agents'
// too; storage, not in SPEC, starts at the API's default rather than unlimited.
const initialValues = (plan: Plan | null): PlanFormValues => ({
  name: plan?.name ?? '',
  users: String(plan?.users ?? 0),
  connections: String(plan?.connections ?? 0),
  queues: String(plan?.queues ?? 0),
  aiAgents: String(plan?.aiAgents ?? 0),
  aiMessages: String(plan?.aiMessages ?? 0),
  aiTokens: String(plan?.aiTokens ?? 0),
  storageMb: String(plan?.storageMb ?? DEFAULT_PLAN_STORAGE_MB),
  value: String(plan?.value ?? 0),
  useCampaigns: plan?.useCampaigns ?? true,
  useKanban: plan?.useKanban ?? true,
  useOpenAi: plan?.useOpenAi ?? true,
  useIntegrations: plan?.useIntegrations ?? true,
  useSchedules: plan?.useSchedules ?? true,
  useExternalApi: plan?.useExternalApi ?? true,
  stripePriceId: plan?.stripePriceId ?? '',
});

const PlanForm = ({ plan }: { plan: Plan | null }) => {
  const { t, i18n } = useTranslation();
  const savePlan = useSavePlan();
  // Every plan is in the platform's billing currency: a new one's is that of the others.
  const plans = usePlans();
  const currency = plan?.currency ?? plans.data?.[0]?.currency;
  const form = useForm<PlanFormValues>({
    resolver: zodResolver(planFormSchema),
    defaultValues: initialValues(plan),
  });
  const { control } = form;

  const save = useDialogSave(form, {
    save: (values) =>
      savePlan.mutateAsync({
        ...values,
        ...(plan ? { id: plan.id } : {}),
        users: Number(values.users),
        connections: Number(values.connections),
        queues: Number(values.queues),
        aiAgents: Number(values.aiAgents),
        aiMessages: Number(values.aiMessages),
        aiTokens: Number(values.aiTokens),
        storageMb: Number(values.storageMb),
        value: toNumber(values.value),
        stripePriceId: values.stripePriceId.trim() || null,
      }),
    savedText: t('settings.plans.saved'),
    toastError: toastOperationError,
    delayMs: ADMIN_FORM_SUBMIT_DELAY_MS,
  });

  const limitField = (
    name: 'users' | 'connections' | 'queues' | 'aiAgents' | 'aiMessages' | 'aiTokens',
    width = 4,
    hint = t('settings.plans.zeroUnlimited'),
  ) => (
    <Grid size={{ xs: 12, sm: width }}>
      <FormText
        form={form}
        name={name}
        type="number"
        label={t(`settings.plans.${name}`)}
        slotProps={{ htmlInput: { min: 0, step: 1 } }}
        hint={hint}
      />
    </Grid>
  );

  return (
    <DialogForm
      title={t(plan ? 'settings.plans.editTitle' : 'settings.plans.addTitle')}
      {...save}
      submitLabel={t('common.save')}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 8 }}>
          <FormText form={form} name="name" label={t('settings.plans.name')} autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <FormText
            form={form}
            name="value"
            type="number"
            label={t('settings.plans.value')}
            slotProps={{
              htmlInput: { min: 0, step: 0.01 },
              input: {
                startAdornment: currency && (
                  <InputAdornment position="start">
                    {currencySymbol(i18n.language, currency)}
                  </InputAdornment>
                ),
              },
            }}
          />
        </Grid>
        {limitField('users')}
        {limitField('connections')}
        {limitField('queues')}
        {limitField('aiAgents')}
        {limitField('aiMessages', 8, t('settings.plans.aiMessagesHint'))}
        {limitField('aiTokens', 12, t('settings.plans.aiTokensHint'))}
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormText
            form={form}
            name="storageMb"
            type="number"
            label={t('settings.plans.storageMb')}
            slotProps={{
              htmlInput: { min: 0, step: 1 },
              input: { endAdornment: <InputAdornment position="end">MB</InputAdornment> },
            }}
            hint={t('settings.plans.storageMbHint')}
          />
        </Grid>
        <Grid size={12}>
          <FormText
            form={form}
            name="stripePriceId"
            label={t('settings.plans.stripePriceId')}
            placeholder="price_…"
            hint={t('settings.plans.stripePriceIdHint')}
          />
        </Grid>
        <Grid size={12}>
          <Typography variant="subtitle2" gutterBottom>
            {t('settings.plans.features')}
          </Typography>
          <FormGroup row>
            {planFeatures.map((feature) => (
              <SwitchField
                key={feature}
                control={control}
                name={feature}
                label={t(`settings.plans.flags.${feature}`)}
                sx={{ minWidth: { sm: 200 } }}
              />
            ))}
          </FormGroup>
        </Grid>
      </Grid>
    </DialogForm>
  );
};

export const PlanFormDialog = ({
  open,
  plan,
  onClose,
}: {
  open: boolean;
  plan: Plan | null;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose}>
    {open && <PlanForm plan={plan} />}
  </DialogFrame>
);
