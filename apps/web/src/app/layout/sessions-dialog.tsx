import { Button, CircularProgress, List, ListItem, ListItemText, Stack } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authContract } from '@atendi/shared';
import { call } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { DialogBody, DialogFrame } from '../../components/dialog-frame';
import { formatDateTime } from '../../lib/dates';
import { describeDevice } from '../../lib/devices';

// How long a user agent no browser and system can be read from is shown.
const RAW_DEVICE_CHARS = 60;

const sessionsKey = ['auth', 'sessions'] as const;

// Issue 37: where the user is signed in (device, address, last use), and a way to end any of those
// sessions but this one, or all of them at once.
const SessionsContent = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: sessionsKey,
    queryFn: () => call(authContract.listSessions),
    staleTime: 0,
  });
  const done = () => queryClient.invalidateQueries({ queryKey: sessionsKey });
  const endOne = useMutation({
    mutationFn: (id: string) => call(authContract.endSession, { params: { id } }),
    onSuccess: done,
    onError: toastError,
    meta: { silent: true },
  });
  const endOthers = useMutation({
    mutationFn: () => call(authContract.endOtherSessions),
    onSuccess: done,
    onError: toastError,
    meta: { silent: true },
  });
  const list = sessions.data?.sessions ?? [];
  const deviceName = (userAgent: string) => {
    const known = describeDevice(userAgent);
    if (known) return t('sessions.device', known);
    return userAgent.slice(0, RAW_DEVICE_CHARS) || t('sessions.unknown');
  };
  return (
    <DialogBody
      title={t('sessions.title')}
      footer={
        <Stack direction="row" spacing={1}>
          <Button
            color="error"
            disabled={endOthers.isPending || list.filter((s) => !s.current).length === 0}
            onClick={() => endOthers.mutate()}
          >
            {t('sessions.endOthers')}
          </Button>
          <Button onClick={onClose}>{t('common.close')}</Button>
        </Stack>
      }
    >
      {sessions.isPending ? (
        <CircularProgress />
      ) : (
        <List aria-label={t('sessions.title')}>
          {list.map((session) => (
            <ListItem
              key={session.id}
              secondaryAction={
                session.current ? undefined : (
                  <Button
                    size="small"
                    color="error"
                    disabled={endOne.isPending}
                    onClick={() => endOne.mutate(session.id)}
                    aria-label={t('sessions.endNamed', { device: deviceName(session.device) })}
                  >
                    {t('sessions.end')}
                  </Button>
                )
              }
            >
              <ListItemText
                primary={
                  session.current
                    ? t('sessions.thisOne', { device: deviceName(session.device) })
                    : deviceName(session.device)
                }
                secondary={t('sessions.where', {
                  address: session.address,
                  when: formatDateTime(session.lastUsedAt),
                })}
              />
            </ListItem>
          ))}
        </List>
      )}
    </DialogBody>
  );
};

export const SessionsDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="sm">
    {open && <SessionsContent onClose={onClose} />}
  </DialogFrame>
);
