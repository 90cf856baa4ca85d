import { useEffect, useState } from 'react';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import type { EnrolledSession, TwoFactorSetup, TwoFactorStep } from '@atendi/shared';
import { errorText } from '../../api/toasts';
import {
  confirmLoginEnrolment,
  enterAfterEnrolment,
  finishTwoFactor,
  startLoginEnrolment,
} from './auth.api';

// The app's secret as a QR code, and typed (for an app on this same device).
export const TwoFactorSecret = ({ setup }: { setup: TwoFactorSetup }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} sx={{ alignItems: 'center' }}>
      <Box sx={{ p: 1, bgcolor: '#fff', borderRadius: 1 }}>
        <QRCodeSVG value={setup.uri} size={176} title={t('twoFactor.qrTitle')} />
      </Box>
      <Typography variant="caption" color="text.secondary">
        {t('twoFactor.typeSecret')}
      </Typography>
      <Typography
        variant="body2"
        data-testid="two-factor-secret"
        sx={{ fontFamily: 'monospace', wordBreak: 'break-all', textAlign: 'center' }}
      >
        {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
      </Typography>
    </Stack>
  );
};

// Shown once: the codes that sign in when the phone is lost.
export const RecoveryCodes = ({ codes }: { codes: string[] }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={1}>
      <Alert severity="warning">{t('twoFactor.recoveryIntro')}</Alert>
      <Box
        component="ul"
        aria-label={t('twoFactor.recoveryTitle')}
        sx={{
          m: 0,
          pl: 0,
          listStyle: 'none',
          display: 'grid',
          gridTemplateColumns: 'repeat(2, 1fr)',
          gap: 0.5,
          fontFamily: 'monospace',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Button
        variant="outlined"
        onClick={() => void navigator.clipboard?.writeText(codes.join('\n'))}
      >
        {t('twoFactor.copyCodes')}
      </Button>
    </Stack>
  );
};

// The code field and its submit, with the refusal said above it.
const CodeForm = ({
  label,
  hint,
  onCode,
}: {
  label: string;
  hint: string;
  onCode: (code: string) => Promise<void>;
}) => {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onCode(code.trim());
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  };
  return (
    <Stack component="form" spacing={2} noValidate onSubmit={(event) => void submit(event)}>
      {error && (
        <Alert severity="error" variant="filled" data-testid="two-factor-error">
          {error}
        </Alert>
      )}
      <TextField
        label={label}
        helperText={hint}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="one-time-code"
        autoFocus
        slotProps={{ htmlInput: { inputMode: 'text', maxLength: 11 } }}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy || !code.trim()}>
        {t('twoFactor.verify')}
      </Button>
    </Stack>
  );
};

// After the password: the code of an account with a second factor, or the enrolment its company
// requires. Starting over goes back to the password.
export const TwoFactorLogin = ({
  step,
  onRestart,
}: {
  step: TwoFactorStep;
  onRestart: () => void;
}) => {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  const [enrolled, setEnrolled] = useState<EnrolledSession | null>(null);

  useEffect(() => {
    if (step.twoFactor !== 'enroll') return;
    startLoginEnrolment(step.challenge)
      .then(setSetup)
      .catch((error: unknown) => setSetupError(errorText(error)));
  }, [step]);

  const restart = (
    <Button variant="text" onClick={onRestart}>
      {t('twoFactor.restart')}
    </Button>
  );

  if (step.twoFactor === 'verify')
    return (
      <Stack spacing={2}>
        <Typography variant="body2">{t('twoFactor.verifyIntro')}</Typography>
        <CodeForm
          label={t('twoFactor.code')}
          hint={t('twoFactor.codeHint')}
          onCode={(code) => finishTwoFactor(step.challenge, code)}
        />
        {restart}
      </Stack>
    );
  if (enrolled)
    return (
      <Stack spacing={2}>
        <RecoveryCodes codes={enrolled.recoveryCodes} />
        <Button variant="contained" size="large" onClick={() => enterAfterEnrolment(enrolled)}>
          {t('twoFactor.continue')}
        </Button>
      </Stack>
    );
  return (
    <Stack spacing={2}>
      <Alert severity="info">{t('twoFactor.enrollIntro')}</Alert>
      {setupError && <Alert severity="error">{setupError}</Alert>}
      {setup && <TwoFactorSecret setup={setup} />}
      {setup && (
        <CodeForm
          label={t('twoFactor.appCode')}
          hint={t('twoFactor.appCodeHint')}
          onCode={async (code) => setEnrolled(await confirmLoginEnrolment(step.challenge, code))}
        />
      )}
      {restart}
    </Stack>
  );
};
