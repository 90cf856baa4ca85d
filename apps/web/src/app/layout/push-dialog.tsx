import { useState } from 'react';
import {
  Alert,
  Button,
  CircularProgress,
  FormControlLabel,
  FormGroup,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pushContract, type PushKind, type PushPreferences } from '@atendi/shared';
import { call } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { DialogBody, DialogFrame } from '../../components/dialog-frame';
import { disablePush, enablePush, pushState, type PushState } from '../../api/push';

const preferencesKey = ['push', 'preferences'] as const;
const stateKey = ['push', 'state'] as const;
const kinds: PushKind[] = [
  'newMessage',
  'assigned',
  'transferred',
  'waitingInQueues',
  'slaWarning',
];

// Issue 41: the user's pushes — turned on or off on this device, and what they are pushed about on
// all of theirs.
const PushContent = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<PushState | null>(null);
  const device = useQuery({ queryKey: stateKey, queryFn: pushState, staleTime: 0 });
  const shown = state ?? device.data;
  const preferences = useQuery({
    queryKey: preferencesKey,
    queryFn: () => call(pushContract.getPushPreferences),
    staleTime: 0,
  });
  const toggle = useMutation({
    mutationFn: (on: boolean) => (on ? enablePush() : disablePush()),
    onSuccess: setState,
    onError: toastError,
    meta: { silent: true },
  });
  const save = useMutation({
    mutationFn: (next: PushPreferences) => call(pushContract.updatePushPreferences, { body: next }),
    onMutate: (next) => queryClient.setQueryData(preferencesKey, next),
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey, saved),
    onError: (error) => {
      toastError(error);
      void queryClient.invalidateQueries({ queryKey: preferencesKey });
    },
    meta: { silent: true },
  });

  return (
    <DialogBody
      title={t('push.title')}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <Stack spacing={2}>
        {shown === undefined ? (
          <CircularProgress size={24} />
        ) : (
          <>
            <Typography data-testid="push-state">{t(`push.state.${shown}`)}</Typography>
            {shown === 'denied' && <Alert severity="warning">{t('push.deniedHint')}</Alert>}
            {shown !== 'unsupported' && (
              <Stack direction="row" spacing={1}>
                <Button
                  variant="contained"
                  disabled={toggle.isPending || shown === 'denied'}
                  onClick={() => toggle.mutate(true)}
                >
                  {t('push.enable')}
                </Button>
                <Button
                  disabled={toggle.isPending || shown !== 'on'}
                  onClick={() => toggle.mutate(false)}
                >
                  {t('push.disable')}
                </Button>
              </Stack>
            )}
          </>
        )}
        <Typography variant="subtitle2">{t('push.preferences')}</Typography>
        {preferences.data ? (
          <FormGroup>
            {kinds.map((kind) => (
              <FormControlLabel
                key={kind}
                label={t(`push.kinds.${kind}`)}
                control={
                  <Switch
                    checked={preferences.data[kind]}
                    onChange={(event) =>
                      save.mutate({ ...preferences.data, [kind]: event.target.checked })
                    }
                  />
                }
              />
            ))}
          </FormGroup>
        ) : (
          <CircularProgress size={24} />
        )}
      </Stack>
    </DialogBody>
  );
};

export const PushDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <PushContent onClose={onClose} />}
  </DialogFrame>
);
