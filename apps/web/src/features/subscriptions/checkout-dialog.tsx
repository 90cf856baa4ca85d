import { useMemo, useState } from 'react';
import {
  Alert,
  AlertTitle,
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormLabel,
  Grid,
  Radio,
  RadioGroup,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
} from '@mui/material';
import LockIcon from '@mui/icons-material/LockOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { billingDetailsSchema, countryCodes, type BillingDetails } from '@atendi/shared';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../api/http-client';
import { errorText } from '../../api/toasts';
import { goToUrl } from '../../lib/browser';
import { registerMui } from '../../lib/forms';
import { formatMoney } from '../../lib/money';
import { useCheckout, type PlanView } from './subscriptions.api';
import { DialogBody, DialogFrame, useDialogBusy } from '../../components/dialog-frame';

// SPEC §2/§4 "Checkout steps: Data, Customize, Review". Card details are typed on the payment
// provider's page the browser goes to at the end, never here.
const steps = ['data', 'customize', 'review'] as const;

type BillingForm = z.input<typeof billingDetailsSchema>;
type BillingField = keyof BillingForm;

const emptyBilling: BillingForm = {
  firstName: '',
  lastName: '',
  address: '',
  city: '',
  state: '',
  zip: '',
  country: '',
};

type CountryOption = { code: string; name: string };

// ISO codes the provider accepts, named in the reader's language and sorted by that name.
const useCountryOptions = (language: string): CountryOption[] =>
  useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([language], { type: 'region' });
    } catch {
      names = null;
    }
    const collator = new Intl.Collator(language);
    return countryCodes
      .map((code) => ({ code, name: names?.of(code) ?? code }))
      .sort((a, b) => collator.compare(a.name, b.name));
  }, [language]);

// The shared schema's messages are for API callers; the steps name each problem in the reader's
// language from what the field holds.
const errorKey = (field: BillingField, error: FieldError, value: string) => {
  if (!value.trim()) return 'validation.required';
  if (error.type === 'too_big') return 'checkout.tooLong';
  if (field === 'zip') return 'checkout.invalidZip';
  if (field === 'country') return 'checkout.invalidCountry';
  return 'validation.required';
};

const textFields = ['firstName', 'lastName', 'address', 'city', 'state', 'zip'] as const;
const fieldWidths: Record<(typeof textFields)[number], number> = {
  firstName: 6,
  lastName: 6,
  address: 12,
  city: 6,
  state: 6,
  zip: 6,
};

const SummaryLine = ({ label, value }: { label: string; value: string }) => (
  <Stack direction="row" spacing={1}>
    <Typography
      sx={{
        color: 'text.secondary',
        minWidth: 140,
      }}
    >
      {label}
    </Typography>
    <Typography sx={{ overflowWrap: 'anywhere' }}>{value}</Typography>
  </Stack>
);

const CheckoutSteps = ({
  plans,
  initialPlanId,
  onClose,
}: {
  plans: readonly PlanView[];
  initialPlanId: number;
  onClose: () => void;
}) => {
  const { t, i18n } = useTranslation();
  const countries = useCountryOptions(i18n.language);
  const [step, setStep] = useState(0);
  const [planId, setPlanId] = useState(initialPlanId);
  const [isRedirecting, setRedirecting] = useState(false);
  const checkout = useCheckout();
  const {
    register,
    control,
    trigger,
    getValues,
    handleSubmit,
    formState: { errors },
  } = useForm<BillingForm, unknown, BillingDetails>({
    resolver: zodResolver(billingDetailsSchema),
    defaultValues: emptyBilling,
    mode: 'onTouched',
  });

  const plan = plans.find((item) => item.id === planId) ?? plans[0];
  const price = plan
    ? t('subscribe.perMonth', { price: formatMoney(plan.value, i18n.language, plan.currency) })
    : '';
  const isBusy = checkout.isPending || isRedirecting;
  // While the checkout is created or the browser leaves for the provider, the dialog stays.
  useDialogBusy(isBusy);

  const fieldError = (field: BillingField) => {
    const error = errors[field];
    return error
      ? { error: true, helperText: t(errorKey(field, error, getValues(field))) }
      : { error: false };
  };

  const next = async () => {
    if (step === 0 && !(await trigger())) return;
    setStep((current) => Math.min(current + 1, steps.length - 1));
  };

  const subscribe = handleSubmit(async (billing) => {
    if (!plan) return;
    try {
      const { url } = await checkout.mutateAsync({ planId: plan.id, billing });
      setRedirecting(true);
      goToUrl(url);
    } catch {
      // The alert below names the failure.
    }
  });

  const failure = checkout.error;
  const isNotConfigured =
    failure instanceof ApiError && failure.code === 'ERR_PAYMENTS_NOT_CONFIGURED';
  const failureDetail =
    failure instanceof ApiError && failure.code && i18n.exists(`errors.${failure.code}`)
      ? errorText(failure)
      : null;

  const billing = getValues();
  const countryName = countries.find((item) => item.code === billing.country.toUpperCase())?.name;

  return (
    <DialogBody
      title={t('checkout.title')}
      footer={
        <>
          <Button onClick={onClose} disabled={isBusy} sx={{ mr: 'auto' }}>
            {t('common.cancel')}
          </Button>
          {step > 0 && (
            <Button onClick={() => setStep(step - 1)} disabled={isBusy}>
              {t('checkout.back')}
            </Button>
          )}
          {step < steps.length - 1 ? (
            <Button variant="contained" onClick={() => void next()}>
              {t('checkout.next')}
            </Button>
          ) : (
            <Button
              variant="contained"
              onClick={() => void subscribe()}
              disabled={isBusy || !plan}
              startIcon={isBusy ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {t('checkout.submit')}
            </Button>
          )}
        </>
      }
    >
      <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
        {steps.map((name) => (
          <Step key={name}>
            <StepLabel>{t(`checkout.steps.${name}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>

      {step === 0 && (
        <Grid container spacing={2}>
          {textFields.map((field) => (
            <Grid key={field} size={{ xs: 12, sm: fieldWidths[field] }}>
              <TextField
                {...registerMui(register, field)}
                label={t(`checkout.fields.${field}`)}
                required
                fullWidth
                autoFocus={field === 'firstName'}
                autoComplete={
                  {
                    firstName: 'given-name',
                    lastName: 'family-name',
                    address: 'street-address',
                    city: 'address-level2',
                    state: 'address-level1',
                    zip: 'postal-code',
                  }[field]
                }
                {...fieldError(field)}
              />
            </Grid>
          ))}
          <Grid size={{ xs: 12, sm: 6 }}>
            <Controller
              name="country"
              control={control}
              render={({ field }) => (
                <Autocomplete
                  options={countries}
                  getOptionLabel={(option) => option.name}
                  isOptionEqualToValue={(option, value) => option.code === value.code}
                  value={countries.find((item) => item.code === field.value) ?? null}
                  onChange={(_event, option) => field.onChange(option?.code ?? '')}
                  onBlur={field.onBlur}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      inputRef={field.ref}
                      label={t('checkout.fields.country')}
                      required
                      {...fieldError('country')}
                    />
                  )}
                />
              )}
            />
          </Grid>
        </Grid>
      )}

      {step === 1 && (
        <Stack spacing={2}>
          <FormControl>
            <FormLabel id="checkout-plan">{t('checkout.choosePlan')}</FormLabel>
            <RadioGroup
              aria-labelledby="checkout-plan"
              value={String(plan?.id ?? '')}
              onChange={(event) => setPlanId(Number(event.target.value))}
            >
              {plans.map((item) => (
                <FormControlLabel
                  key={item.id}
                  value={String(item.id)}
                  control={<Radio />}
                  label={`${item.name} · ${t('subscribe.perMonth', {
                    price: formatMoney(item.value, i18n.language, item.currency),
                  })}`}
                />
              ))}
            </RadioGroup>
          </FormControl>
          {plan && (
            <Typography variant="h6" component="p" data-testid="checkout-price">
              {t('checkout.priceOf', { plan: plan.name, price })}
            </Typography>
          )}
        </Stack>
      )}

      {step === 2 && plan && (
        <Stack spacing={2} data-testid="checkout-review">
          <Box>
            <Typography variant="subtitle1" component="h3" gutterBottom>
              {t('checkout.billingDetails')}
            </Typography>
            <SummaryLine
              label={t('checkout.review.name')}
              value={`${billing.firstName.trim()} ${billing.lastName.trim()}`}
            />
            <SummaryLine label={t('checkout.fields.address')} value={billing.address.trim()} />
            <SummaryLine
              label={t('checkout.review.place')}
              value={[billing.city, billing.state, billing.zip]
                .map((part) => part.trim())
                .join(', ')}
            />
            <SummaryLine
              label={t('checkout.fields.country')}
              value={countryName ?? billing.country}
            />
          </Box>
          <Box>
            <Typography variant="subtitle1" component="h3" gutterBottom>
              {t('checkout.plan')}
            </Typography>
            <SummaryLine label={t('checkout.review.plan')} value={plan.name} />
            <SummaryLine label={t('checkout.review.price')} value={price} />
          </Box>
          <Alert severity="info" icon={<LockIcon />}>
            {t('checkout.secureNote')}
          </Alert>
          {failure && !isBusy && (
            <Alert severity="error" data-testid="checkout-error">
              <AlertTitle>
                {isNotConfigured ? t('checkout.notConfigured') : t('checkout.failed')}
              </AlertTitle>
              {!isNotConfigured && failureDetail}
            </Alert>
          )}
          {isRedirecting && (
            <Typography
              role="status"
              sx={{
                color: 'text.secondary',
              }}
            >
              {t('checkout.redirecting')}
            </Typography>
          )}
        </Stack>
      )}
    </DialogBody>
  );
};

export const CheckoutDialog = ({
  open,
  plans,
  initialPlanId,
  onClose,
}: {
  open: boolean;
  // The plans that can be bought online.
  plans: readonly PlanView[];
  initialPlanId: number | null;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose}>
    {open && initialPlanId !== null && (
      <CheckoutSteps plans={plans} initialPlanId={initialPlanId} onClose={onClose} />
    )}
  </DialogFrame>
);
