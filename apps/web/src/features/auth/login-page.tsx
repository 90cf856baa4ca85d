import { useState } from 'react';
import { Alert, Button, Link, Stack } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/toasts';
import { FormText } from '../../components/form-text';
import { AuthLayout } from './auth-layout';
import { login } from './auth.api';
import { TwoFactorLogin } from './two-factor-step';
import type { TwoFactorStep } from '@atendi/shared';
import { loginFormSchema, type LoginFormValues } from './auth.schemas';

export const LoginPage = () => {
  const { t } = useTranslation();
  const [loginError, setLoginError] = useState<string | null>(null);
  // Issue 37: the password was right and a second step is asked for.
  const [step, setStep] = useState<TwoFactorStep | null>(null);
  const form = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onSubmit = async (values: LoginFormValues) => {
    setLoginError(null);
    try {
      // On success the public-route guard takes the user to SPEC §2's after-login page.
      const result = await login(values);
      if ('twoFactor' in result) setStep(result);
    } catch (error) {
      setLoginError(errorText(error));
    }
  };

  if (step)
    return (
      <AuthLayout title={t('twoFactor.title')} subtitle={t('twoFactor.subtitle')}>
        <TwoFactorLogin step={step} onRestart={() => setStep(null)} />
      </AuthLayout>
    );

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit(onSubmit)}>
        {loginError && (
          <Alert severity="error" variant="filled" data-testid="login-error">
            {loginError}
          </Alert>
        )}
        <FormText
          form={form}
          name="email"
          type="email"
          label={t('login.email')}
          autoComplete="email"
          autoFocus
        />
        <FormText
          form={form}
          name="password"
          type="password"
          label={t('login.password')}
          autoComplete="current-password"
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('login.submit')}
        </Button>
        <Stack
          direction="row"
          sx={{
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            gap: 1,
          }}
        >
          <Link component={RouterLink} to="/forgetpsw" variant="body2">
            {t('login.forgotPassword')}
          </Link>
          <Link component={RouterLink} to="/signup" variant="body2">
            {t('login.signUp')}
          </Link>
        </Stack>
      </Stack>
    </AuthLayout>
  );
};
