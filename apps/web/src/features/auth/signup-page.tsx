import { Button, Link, MenuItem, Stack } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../api/toasts';
import { FormText, PasswordField } from '../../components/form-text';
import { SelectField } from '../../components/select-field';
import { useFieldError, useFirstChoice } from '../../lib/forms';
import { formatMoney } from '../../lib/money';
import { AuthLayout } from './auth-layout';
import { usePublicPlans } from '../../api/queries/plans';
import { login, signup } from './auth.api';
import { signupFormSchema, type SignupFormValues } from './auth.schemas';

export const SignupPage = () => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const referrerCompanyId = Number(searchParams.get('companyId')) || undefined;
  const plans = usePublicPlans();

  const form = useForm<SignupFormValues>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: { name: '', userName: '', email: '', phone: '', password: '', planId: '' },
  });
  const {
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form;
  useFirstChoice(form, 'planId', plans.data);

  const onSubmit = async (values: SignupFormValues) => {
    try {
      await signup({
        ...values,
        planId: Number(values.planId),
        ...(referrerCompanyId ? { companyId: referrerCompanyId } : {}),
      });
    } catch (error) {
      toastError(error);
      return;
    }
    // The new admin is in at once, on the getting-started checklist (the dashboard's first card):
    try {
      const result = await login({ email: values.email, password: values.password }, '/');
      // (A new company requires no second factor; were it otherwise, the login page asks for it.)
      if ('twoFactor' in result) throw new Error('second step');
      toast.success(t('signup.welcome'));
      navigate('/', { replace: true });
    } catch {
      // The company exists; only the sign-in failed (the network): the login page takes it from here.
      toast.success(t('signup.success'));
      navigate('/login', { replace: true });
    }
  };

  const fieldError = useFieldError(errors);

  return (
    <AuthLayout title={t('signup.title')} subtitle={t('signup.subtitle')}>
      <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit(onSubmit)}>
        <FormText
          form={form}
          name="name"
          label={t('signup.name')}
          autoComplete="organization"
          autoFocus
        />
        <FormText
          form={form}
          name="userName"
          label={t('signup.userName')}
          autoComplete="name"
          hint={t('signup.userNameHint')}
        />
        <FormText
          form={form}
          name="email"
          type="email"
          label={t('signup.email')}
          autoComplete="email"
        />
        <FormText
          form={form}
          name="phone"
          type="tel"
          label={t('signup.phone')}
          placeholder={t('signup.phonePlaceholder')}
          autoComplete="tel"
          // No maxLength: a pasted 13th digit would vanish unseen; the rule says so instead.
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          hint={t('signup.phoneHint')}
        />
        <PasswordField form={form} name="password" label={t('signup.password')} />
        <SelectField
          control={control}
          name="planId"
          label={t('signup.plan')}
          disabled={plans.isPending}
          {...fieldError('planId')}
        >
          {(plans.data ?? []).map((plan) => (
            <MenuItem key={plan.id} value={String(plan.id)}>
              {t('signup.planOption', {
                name: plan.name,
                users: t('signup.usersCount', { count: plan.users }),
                connections: t('signup.connectionsCount', { count: plan.connections }),
                // A limit of 0 means unlimited departments.
                queues:
                  plan.queues > 0
                    ? t('signup.queuesCount', { count: plan.queues })
                    : t('signup.queuesUnlimited'),
                price: formatMoney(plan.value, i18n.language, plan.currency),
              })}
            </MenuItem>
          ))}
        </SelectField>
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('signup.submit')}
        </Button>
        <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: 'center' }}>
          {t('signup.haveAccount')}
        </Link>
      </Stack>
    </AuthLayout>
  );
};
