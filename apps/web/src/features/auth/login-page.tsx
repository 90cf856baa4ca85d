import { useState } from 'react';
import { Alert, Button, Link, Stack, Typography } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/toasts';
import { FormText } from '../../components/form-text';
import { AuthLayout } from './auth-layout';
import { login } from './auth.api';
import { TwoFactorLogin } from './two-factor-step';
import { isErrorCode, type TwoFactorStep } from '@atendi/shared';
import { startSso, useSsoDiscovery } from './sso.api';
import { loginFormSchema, type LoginFormValues } from './auth.schemas';

export const LoginPage = () => {
  const { t } = useTranslation();
  // A sign-in through the company's provider that came back refused (?ssoError=CODE).
  const [searchParams] = useSearchParams();
  const [loginError, setLoginError] = useState<string | null>(() => {
    const code = searchParams.get('ssoError');
    return code && isErrorCode(code) ? t(`errors.${code}`) : null;
  });
  // Issue 37: the password was right and a second step is asked for.
  const [step, setStep] = useState<TwoFactorStep | null>(null);
  const form = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });
  const {
    handleSubmit,
    watch,
    formState: { isSubmitting },
  } = form;
  // Issue 37: an email of a company with single sign-on is offered its provider; a company that
  // signs in with SSO only is offered nothing else.
  const typed = watch('email');
  const discovered = useSsoDiscovery(typed);
  const offersSso = discovered.sso === true && discovered.email === typed.trim().toLowerCase();
  const ssoOnly = offersSso && discovered.passwordLogin === false;

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
      <Stack
        component="form"
        spacing={2}
        noValidate
        onSubmit={
          ssoOnly
            ? (event) => {
                // Enter in the email field: the only way in.
                event.preventDefault();
                startSso(discovered.email);
              }
            : handleSubmit(onSubmit)
        }
      >
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
        {!ssoOnly && (
          <FormText
            form={form}
            name="password"
            type="password"
            label={t('login.password')}
            autoComplete="current-password"
          />
        )}
        {!ssoOnly && (
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {t('login.submit')}
          </Button>
        )}
        {offersSso && (
          <Stack spacing={1}>
            <Typography variant="body2" color="text.secondary">
              {t(ssoOnly ? 'login.ssoOnly' : 'login.ssoHint')}
            </Typography>
            <Button
              variant={ssoOnly ? 'contained' : 'outlined'}
              size="large"
              startIcon={<KeyIcon />}
              onClick={() => startSso(discovered.email)}
            >
              {t('login.sso')}
            </Button>
          </Stack>
        )}
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
