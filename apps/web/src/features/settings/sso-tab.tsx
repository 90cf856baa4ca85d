import { useState } from 'react';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ssoDomain, type SsoConfig } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { errorText, toastError } from '../../api/toasts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyField } from '../../components/copy-field';
import { FormText } from '../../components/form-text';
import { LoadingBox } from '../../components/loading-box';
import { SwitchField } from '../../components/switch-field';
import { useDeleteSso, useSaveSso, useSsoSettings } from './settings.api';

// Issue 37: the company's single sign-on with OpenID Connect. The provider is discovered by the
// server before anything is saved; the client secret is written here and never shown again.

// "empresa.com, @empresa.com.mx" → the domains, as the server reads them.
const domainList = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

const formSchema = z.object({
  issuer: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/]+\S*$/, 'settings.sso.issuerInvalid'),
  clientId: z.string().trim().min(1, 'settings.sso.required'),
  clientSecret: z.string().trim(),
  domains: z
    .string()
    .refine(
      (text) =>
        domainList(text).length > 0 &&
        domainList(text).every((domain) => ssoDomain.safeParse(domain).success),
      'settings.sso.domainsInvalid',
    ),
  enabled: z.boolean(),
  createUsers: z.boolean(),
  passwordLogin: z.boolean(),
});
type FormValues = z.infer<typeof formSchema>;

const valuesOf = (config: SsoConfig | null): FormValues => ({
  issuer: config?.issuer ?? '',
  clientId: config?.clientId ?? '',
  clientSecret: '',
  domains: config?.domains.join(', ') ?? '',
  enabled: config?.enabled ?? true,
  createUsers: config?.createUsers ?? false,
  passwordLogin: config?.passwordLogin ?? true,
});

const SsoForm = ({
  companyId,
  config,
  callbackUrl,
}: {
  companyId: number;
  config: SsoConfig | null;
  callbackUrl: string;
}) => {
  const { t } = useTranslation();
  const save = useSaveSso(companyId);
  const remove = useDeleteSso(companyId);
  const [confirming, setConfirming] = useState(false);
  // Why the provider's discovery failed, as the server put it (for whoever set the provider up).
  const [providerReason, setProviderReason] = useState<string | null>(null);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: valuesOf(config),
  });
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;

  const onSubmit = async (values: FormValues) => {
    setProviderReason(null);
    if (!config && !values.clientSecret) {
      setError('clientSecret', { message: 'settings.sso.secretRequired' }, { shouldFocus: true });
      return;
    }
    try {
      const saved = await save.mutateAsync({
        ...values,
        clientSecret: values.clientSecret || undefined,
        domains: domainList(values.domains),
      });
      reset(valuesOf(saved.config));
      toast.success(t('settings.sso.saved'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_SSO_PROVIDER') {
        setError('issuer', { message: 'settings.sso.providerFailed' }, { shouldFocus: true });
        setProviderReason(error.fields?.issuer?.[0] ?? error.message);
      } else if (error instanceof ApiError && error.code === 'ERR_OUTBOUND_URL_NOT_ALLOWED') {
        setError(
          'issuer',
          { message: 'errors.ERR_OUTBOUND_URL_NOT_ALLOWED' },
          { shouldFocus: true },
        );
      } else if (error instanceof ApiError && error.code === 'ERR_SSO_DOMAIN_TAKEN') {
        setError('domains', { message: 'errors.ERR_SSO_DOMAIN_TAKEN' }, { shouldFocus: true });
      } else if (error instanceof ApiError && error.fields?.clientSecret) {
        setError('clientSecret', { message: 'settings.sso.secretRequired' }, { shouldFocus: true });
      } else {
        toastError(error);
      }
    }
  };

  const onRemove = async () => {
    try {
      await remove.mutateAsync();
      reset(valuesOf(null));
      toast.success(t('settings.sso.removed'));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack
        component="form"
        aria-label={t('settings.tabs.sso')}
        noValidate
        spacing={2}
        onSubmit={handleSubmit(onSubmit)}
      >
        <Typography variant="body2" color="text.secondary">
          {t('settings.sso.intro')}
        </Typography>
        <CopyField
          label={t('settings.sso.callbackUrl')}
          value={callbackUrl}
          helperText=""
          copyLabel={t('settings.sso.copy')}
          copiedText={t('settings.sso.copied')}
        />
        <FormText
          form={form}
          name="issuer"
          label={t('settings.sso.issuer')}
          hint={t('settings.sso.issuerHint')}
          inputMode="url"
        />
        {providerReason && (
          <Alert severity="error" data-testid="sso-provider-reason">
            {providerReason}
          </Alert>
        )}
        <FormText form={form} name="clientId" label={t('settings.sso.clientId')} />
        <FormText
          form={form}
          name="clientSecret"
          type="password"
          autoComplete="new-password"
          label={t('settings.sso.clientSecret')}
          hint={config?.hasSecret ? t('settings.sso.secretKept') : undefined}
        />
        <FormText
          form={form}
          name="domains"
          label={t('settings.sso.domains')}
          hint={t('settings.sso.domainsHint')}
        />
        <Stack>
          <SwitchField control={control} name="enabled" label={t('settings.sso.enabled')} />
          <SwitchField control={control} name="createUsers" label={t('settings.sso.createUsers')} />
          <SwitchField
            control={control}
            name="passwordLogin"
            label={t('settings.sso.passwordLogin')}
          />
          <Typography variant="caption" color="text.secondary">
            {t('settings.sso.passwordLoginHint')}
          </Typography>
        </Stack>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('common.save')}
          </Button>
          {config && (
            <Button color="error" onClick={() => setConfirming(true)}>
              {t('settings.sso.remove')}
            </Button>
          )}
        </Box>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t('settings.sso.remove')}
        message={t('settings.sso.removeConfirm')}
        confirmLabel={t('settings.sso.remove')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => void onRemove()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
};

export const SsoTab = ({ companyId }: { companyId: number }) => {
  const sso = useSsoSettings(companyId);
  if (sso.isError) return <Alert severity="error">{errorText(sso.error)}</Alert>;
  if (!sso.data) return <LoadingBox />;
  return (
    <SsoForm
      // A new form once the saved configuration appears or goes (its defaults are read once).
      key={sso.data.config ? 'set' : 'unset'}
      companyId={companyId}
      config={sso.data.config}
      callbackUrl={sso.data.callbackUrl}
    />
  );
};
