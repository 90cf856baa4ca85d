import { useState } from 'react';
import { Button, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { useDeleteConfirm } from '../../components/delete-confirm';
import { MessagePage } from '../../components/message-page';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { cssColor } from '../../lib/colors';
import { ColorSwatch } from '../../components/color-field';
import { QueueDialog } from './queue-dialog';
import { applyQueueEventToCache, useQueues } from '../../api/queries/queues';
import { deleteQueue, type Queue } from './queues.api';

type DialogState = { open: boolean; queue: Queue | null; sessionKey: number };

// GET /queue answers every queue in its order: the table neither searches nor pages.
const QueuesManager = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: queues = [], isPending } = useQueues();
  const [dialog, setDialog] = useState<DialogState>({ open: false, queue: null, sessionKey: 0 });

  const openDialog = (queue: Queue | null) =>
    setDialog((current) => ({ open: true, queue, sessionKey: current.sessionKey + 1 }));

  const confirmDelete = useDeleteConfirm({
    remove: (queue: Queue) => deleteQueue(queue.id),
    onDeleted: (queue) =>
      applyQueueEventToCache(queryClient, { action: 'delete', queueId: queue.id }),
    deletedText: t('queues.deleted'),
    title: (queue) => t('queues.deleteTitle', { name: queue.name }),
    message: () => t('queues.deleteText'),
    confirmLabel: t('queues.delete'),
  });

  const columns: TableColumns<Queue> = [
    { header: t('queues.columns.name'), cell: (queue) => queue.name, sx: { fontWeight: 500 } },
    {
      header: t('queues.columns.color'),
      cell: (queue) => (
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'center',
          }}
        >
          <ColorSwatch color={cssColor(queue.color)} size={18} />
          <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace' }}>
            {queue.color}
          </Typography>
        </Stack>
      ),
    },
    {
      header: t('queues.columns.order'),
      cell: (queue) => queue.orderQueue ?? '—',
      align: 'center',
    },
    {
      header: t('queues.columns.greeting'),
      cell: (queue) => (
        <Typography
          variant="body2"
          noWrap
          title={queue.greetingMessage || undefined}
          color={queue.greetingMessage ? 'text.primary' : 'text.secondary'}
        >
          {queue.greetingMessage || '—'}
        </Typography>
      ),
      sx: { maxWidth: 320 },
    },
    actionsColumn(t('queues.columns.actions'), (queue) => (
      <>
        <RowAction
          title={t('queues.edit')}
          label={t('queues.editQueue', { name: queue.name })}
          icon={<EditOutlinedIcon fontSize="small" />}
          onClick={() => openDialog(queue)}
        />
        <RowAction
          title={t('queues.delete')}
          label={t('queues.deleteQueue', { name: queue.name })}
          icon={<DeleteOutlineIcon fontSize="small" />}
          onClick={() => confirmDelete.ask(queue)}
        />
      </>
    )),
  ];

  return (
    <>
      <PagedTable
        title={t('queues.title')}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            {t('queues.add')}
          </Button>
        }
        // The whole list arrives at once: only the first load shows the loading row.
        list={{ rows: queues, isPending, isFetching: isPending }}
        columns={columns}
        emptyText={t('queues.empty')}
      />
      <QueueDialog
        open={dialog.open}
        queue={dialog.queue}
        queues={queues}
        sessionKey={dialog.sessionKey}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      {confirmDelete.dialog}
    </>
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
