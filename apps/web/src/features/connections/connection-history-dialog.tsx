import { useEffect, useRef } from 'react';
import { Alert, Box, Divider, List, ListItem, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useConnections } from '../../api/queries/connections';
import { DialogFrame, DialogView } from '../../components/dialog-frame';
import { LoadingBox } from '../../components/loading-box';
import { formatDateTime } from '../../lib/dates';
import { ConnectionStatusLabel } from './connection-status';
import { connectionsKeys, fetchConnectionHistory } from './connections.api';

// Issue 39 (number health): the connection's status changes, newest first, each with the status it
// came from and, when WhatsApp or the provider decided it, why in words and what it said.
const HistoryBody = ({ connectionId }: { connectionId: number }) => {
  const { t } = useTranslation();
  const connection = useConnections().data?.find((row) => row.id === connectionId);
  const history = useQuery({
    queryKey: connectionsKeys.history(connectionId),
    queryFn: () => fetchConnectionHistory(connectionId),
    staleTime: 0,
    meta: { silent: true },
  });
  // A status change arrives live on the list: read the history again to show its entry.
  const status = connection?.status;
  const shownStatus = useRef(status);
  const { refetch } = history;
  useEffect(() => {
    if (shownStatus.current === status) return;
    shownStatus.current = status;
    void refetch();
  }, [status, refetch]);
  const entries = history.data?.entries ?? [];

  return (
    <DialogView title={t('connections.history.title', { name: connection?.name ?? '' })}>
      {history.isPending ? (
        <LoadingBox />
      ) : history.isError ? (
        <Alert severity="error">{t('connections.history.loadFailed')}</Alert>
      ) : entries.length === 0 ? (
        <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
          {t('connections.history.empty')}
        </Box>
      ) : (
        <List aria-label={t('connections.history.listLabel')} disablePadding>
          {entries.map((entry, index) => (
            <Box component="li" key={entry.id} sx={{ listStyle: 'none' }}>
              {index > 0 && <Divider component="div" />}
              <ListItem component="div" disableGutters sx={{ display: 'block', py: 1.5 }}>
                <Stack
                  direction="row"
                  spacing={1.5}
                  useFlexGap
                  sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                >
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {formatDateTime(entry.at)}
                  </Typography>
                  <ConnectionStatusLabel status={entry.status} />
                  {entry.previous && (
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('connections.history.since', {
                        status: t(`connections.statuses.${entry.previous}`),
                      })}
                    </Typography>
                  )}
                </Stack>
                {entry.cause && (
                  <Typography variant="body2" sx={{ mt: 0.5 }}>
                    {t(`connections.history.causes.${entry.cause}`)}
                  </Typography>
                )}
                {entry.detail && (
                  <Typography
                    variant="caption"
                    component="p"
                    sx={{ color: 'text.secondary', wordBreak: 'break-word' }}
                  >
                    {entry.detail}
                  </Typography>
                )}
              </ListItem>
            </Box>
          ))}
        </List>
      )}
    </DialogView>
  );
};

export const ConnectionHistoryDialog = ({
  open,
  connectionId,
  sessionKey,
  onClose,
}: {
  open: boolean;
  connectionId: number | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="sm">
    {connectionId !== null && <HistoryBody connectionId={connectionId} />}
  </DialogFrame>
);
