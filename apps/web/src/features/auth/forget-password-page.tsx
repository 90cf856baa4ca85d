import { useState } from 'react';
import { Button, Link, Stack, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { FormText, PasswordField } from '../../components/form-text';
import { AuthLayout } from './auth-layout';
import { requestPasswordReset, resetPassword } from './auth.api';
import {
  forgotEmailSchema,
  resetPasswordFormSchema,
  type ForgotEmailValues,
  type ResetPasswordFormValues,
} from './auth.schemas';

const useFailureToast = () => {
  const { t } = useTranslation();
  // SPEC §7: 404 on either step means the email is unknown.
  return (error: unknown) => {
    if (error instanceof ApiError && error.status === 404) toast.error(t('forgot.emailNotFound'));
    else toastError(error);
  };
};

const EmailStep = ({ onSent }: { onSent: (email: string) => void }) => {
  const { t } = useTranslation();
  const onFailure = useFailureToast();
  const form = useForm<ForgotEmailValues>({
    resolver: zodResolver(forgotEmailSchema),
    defaultValues: { email: '' },
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onSubmit = async ({ email }: ForgotEmailValues) => {
    try {
      await requestPasswordReset(email);
      toast.success(t('forgot.emailSent'));
      onSent(email);
    } catch (error) {
      onFailure(error);
    }
  };

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit(onSubmit)}>
      <FormText
        form={form}
        name="email"
        type="email"
        label={t('forgot.email')}
        autoComplete="email"
        autoFocus
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {t('forgot.sendCode')}
      </Button>
    </Stack>
  );
};

const ResetStep = ({ email, onChangeEmail }: { email: string; onChangeEmail: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onFailure = useFailureToast();
  const form = useForm<ResetPasswordFormValues>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { code: '', newPassword: '', confirmPassword: '' },
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onSubmit = async ({ code, newPassword }: ResetPasswordFormValues) => {
    try {
      await resetPassword(email, code, newPassword);
      toast.success(t('forgot.passwordUpdated'));
      navigate('/login', { replace: true });
    } catch (error) {
      onFailure(error);
    }
  };

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Typography
        variant="body2"
        sx={{
          color: 'text.secondary',
        }}
      >
        {t('forgot.codeSentTo', { email })}
      </Typography>
      <FormText
        form={form}
        name="code"
        label={t('forgot.code')}
        autoComplete="one-time-code"
        autoFocus
      />
      <PasswordField
        form={form}
        name="newPassword"
        label={t('forgot.newPassword')}
        hint={t('forgot.passwordHint')}
      />
      <PasswordField form={form} name="confirmPassword" label={t('forgot.confirmPassword')} />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {t('forgot.resetPassword')}
      </Button>
      <Button variant="text" onClick={onChangeEmail}>
        {t('forgot.changeEmail')}
      </Button>
    </Stack>
  );
};

export const ForgetPasswordPage = () => {
  const { t } = useTranslation();
  const [email, setEmail] = useState<string | null>(null);
  return (
    <AuthLayout
      title={t('forgot.title')}
      subtitle={email ? t('forgot.step2Subtitle') : t('forgot.step1Subtitle')}
    >
      {email ? (
        <ResetStep email={email} onChangeEmail={() => setEmail(null)} />
      ) : (
        <EmailStep onSent={setEmail} />
      )}
      <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: 'center' }}>
        {t('forgot.backToLogin')}
      </Link>
    </AuthLayout>
  );
};
