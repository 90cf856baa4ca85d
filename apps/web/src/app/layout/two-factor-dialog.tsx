import { useState } from 'react';
import { Alert, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authContract, type TwoFactorSetup } from '@atendi/shared';
import { call } from '../../api/http-client';
import { errorText } from '../../api/toasts';
import { DialogBody, DialogFrame } from '../../components/dialog-frame';
import { RecoveryCodes, TwoFactorSecret } from '../../features/auth/two-factor-step';

const statusKey = ['auth', 'two-factor'] as const;

// Issue 37: the signed-in user's own second factor: turned on with an app (QR, first code, recovery
// codes shown once), or off with the password and a code unless the company requires it.
const TwoFactorContent = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: statusKey,
    queryFn: () => call(authContract.getTwoFactor),
    meta: { silent: true },
  });
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: statusKey });
  const start = useMutation({
    mutationFn: () => call(authContract.setupTwoFactor),
    onSuccess: setSetup,
    meta: { silent: true },
  });
  const enable = useMutation({
    mutationFn: () => call(authContract.enableTwoFactor, { body: { code: code.trim() } }),
    onSuccess: (done) => {
      setCodes(done.recoveryCodes);
      setSetup(null);
      setCode('');
      void refresh();
    },
    meta: { silent: true },
  });
  const disable = useMutation({
    mutationFn: () =>
      call(authContract.disableTwoFactor, { body: { password, code: code.trim() } }),
    onSuccess: () => {
      setCode('');
      setPassword('');
      void refresh();
    },
    meta: { silent: true },
  });
  const failure = start.error ?? enable.error ?? disable.error;
  const footer = (
    <Button onClick={onClose}>{codes ? t('twoFactor.continue') : t('common.close')}</Button>
  );

  let body;
  if (!status.data) body = status.isPending ? <CircularProgress /> : null;
  else if (codes) body = <RecoveryCodes codes={codes} />;
  else if (setup)
    body = (
      <Stack spacing={2}>
        <TwoFactorSecret setup={setup} />
        <TextField
          label={t('twoFactor.appCode')}
          helperText={t('twoFactor.appCodeHint')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
        />
        <Button
          variant="contained"
          disabled={enable.isPending || !/^\d{6}$/.test(code.trim())}
          onClick={() => enable.mutate()}
        >
          {t('twoFactor.enable')}
        </Button>
      </Stack>
    );
  else if (!status.data.enabled)
    body = (
      <Stack spacing={2}>
        <Typography variant="body2">{t('twoFactor.offIntro')}</Typography>
        {status.data.required && <Alert severity="warning">{t('twoFactor.requiredNotice')}</Alert>}
        <Button variant="contained" disabled={start.isPending} onClick={() => start.mutate()}>
          {t('twoFactor.turnOn')}
        </Button>
      </Stack>
    );
  else
    body = (
      <Stack spacing={2}>
        <Alert severity="success">
          {t('twoFactor.onIntro', { count: status.data.recoveryCodesLeft })}
        </Alert>
        {status.data.required ? (
          <Typography variant="body2">{t('twoFactor.requiredNotice')}</Typography>
        ) : (
          <>
            <TextField
              type="password"
              label={t('profile.password')}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="current-password"
            />
            <TextField
              label={t('twoFactor.code')}
              helperText={t('twoFactor.codeHint')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
            />
            <Button
              color="error"
              variant="outlined"
              disabled={disable.isPending || !password || !code.trim()}
              onClick={() => disable.mutate()}
            >
              {t('twoFactor.turnOff')}
            </Button>
          </>
        )}
      </Stack>
    );
  return (
    <DialogBody title={t('twoFactor.title')} footer={footer}>
      <Stack spacing={2}>
        {failure && (
          <Alert severity="error" data-testid="two-factor-error">
            {errorText(failure)}
          </Alert>
        )}
        {body}
      </Stack>
    </DialogBody>
  );
};

export const TwoFactorDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <TwoFactorContent onClose={onClose} />}
  </DialogFrame>
);
