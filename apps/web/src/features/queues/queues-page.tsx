import { useState } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { can } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { MessagePage } from '../../components/message-page';
import { cssColor } from '../../lib/colors';
import { ColorSwatch } from './color-picker';
import { QueueDialog } from './queue-dialog';
import {
  applyQueueEventToCache,
  deleteQueue,
  useQueueLiveUpdates,
  useQueues,
  type Queue,
} from './queues.api';

type DialogState = { open: boolean; queue: Queue | null; sessionKey: number };

const QueuesManager = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: queues = [], isPending } = useQueues();
  const [dialog, setDialog] = useState<DialogState>({ open: false, queue: null, sessionKey: 0 });
  const [toDelete, setToDelete] = useState<Queue | null>(null);

  useQueueLiveUpdates();

  const openDialog = (queue: Queue | null) =>
    setDialog((current) => ({ open: true, queue, sessionKey: current.sessionKey + 1 }));

  const remove = useMutation({
    mutationFn: (queue: Queue) => deleteQueue(queue.id),
    onSuccess: (_data, queue) => {
      applyQueueEventToCache(queryClient, { action: 'delete', queueId: queue.id });
      toast.success(t('queues.deleted'));
    },
    onSettled: () => setToDelete(null),
  });

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        alignItems={{ xs: 'stretch', sm: 'center' }}
      >
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('queues.title')}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
          {t('queues.add')}
        </Button>
      </Stack>

      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t('queues.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('queues.columns.name')}</TableCell>
              <TableCell>{t('queues.columns.color')}</TableCell>
              <TableCell align="center">{t('queues.columns.order')}</TableCell>
              <TableCell>{t('queues.columns.greeting')}</TableCell>
              <TableCell align="center" sx={{ width: 120 }}>
                {t('queues.columns.actions')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {queues.map((queue) => (
              <TableRow key={queue.id} hover>
                <TableCell sx={{ fontWeight: 500 }}>{queue.name}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} alignItems="center">
                    <ColorSwatch color={cssColor(queue.color)} size={18} />
                    <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace' }}>
                      {queue.color}
                    </Typography>
                  </Stack>
                </TableCell>
                <TableCell align="center">{queue.orderQueue ?? '—'}</TableCell>
                <TableCell sx={{ maxWidth: 320 }}>
                  <Typography
                    variant="body2"
                    noWrap
                    title={queue.greetingMessage || undefined}
                    color={queue.greetingMessage ? 'text.primary' : 'text.secondary'}
                  >
                    {queue.greetingMessage || '—'}
                  </Typography>
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('queues.edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('queues.editQueue', { name: queue.name })}
                      onClick={() => openDialog(queue)}
                    >
                      <EditOutlinedIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('queues.delete')}>
                    <IconButton
                      size="small"
                      aria-label={t('queues.deleteQueue', { name: queue.name })}
                      onClick={() => setToDelete(queue)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {isPending && (
              <TableRow>
                <TableCell colSpan={5} align="center">
                  <CircularProgress size={24} aria-label={t('app.loading')} />
                </TableCell>
              </TableRow>
            )}
            {!isPending && queues.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>
                  <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                    {t('queues.empty')}
                  </Box>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>

      <QueueDialog
        open={dialog.open}
        queue={dialog.queue}
        queues={queues}
        sessionKey={dialog.sessionKey}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={t('queues.deleteTitle', { name: toDelete?.name ?? '' })}
        message={t('queues.deleteText')}
        confirmLabel={t('queues.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
};

// SPEC §2 Queues: admins only; other profiles get a notice instead of a failing form.
export const QueuesPage = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  if (!can(user, 'queues:manage')) {
    return (
      <MessagePage title={t('queues.noPermissionTitle')} text={t('queues.noPermissionText')} />
    );
  }
  return <QueuesManager />;
};
