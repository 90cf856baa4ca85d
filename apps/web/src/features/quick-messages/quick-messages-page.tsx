import { useState } from 'react';
import { Button, Chip, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { QuickMessageView } from '@atendi/shared';
import { useQueues } from '../../api/queries/queues';
import { useCurrentSession } from '../../api/session';
import { useDeleteConfirm } from '../../components/delete-confirm';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { usePagedList } from '../../lib/use-paged-list';
import { QuickMessageDialog } from './quick-message-dialog';
import {
  applyQuickMessageEventToCache,
  deleteQuickMessage,
  quickMessagesList,
  useQuickMessageLiveUpdates,
} from './quick-messages.api';

type DialogState = { open: boolean; record: QuickMessageView | null; sessionKey: number };

// SPEC §2 Quick messages: personal answers are their author's; company-wide ("geral") ones are
// everyone's to use and only admins' to manage, as the API enforces.
export const QuickMessagesPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const managesCompanyWide = me.super || me.profile === 'admin';
  const list = usePagedList(quickMessagesList);
  const [dialog, setDialog] = useState<DialogState>({ open: false, record: null, sessionKey: 0 });

  useQuickMessageLiveUpdates();

  // Company-wide and queue answers are the admins' to change.
  const isLocked = (record: QuickMessageView) =>
    (record.geral || record.queueId !== null) && !managesCompanyWide;
  const queueNames = new Map((useQueues().data ?? []).map((queue) => [queue.id, queue.name]));

  const openDialog = (record: QuickMessageView | null) =>
    setDialog((current) => ({ open: true, record, sessionKey: current.sessionKey + 1 }));

  const confirmDelete = useDeleteConfirm({
    remove: (record: QuickMessageView) => deleteQuickMessage(record.id),
    onDeleted: (record) =>
      applyQuickMessageEventToCache(queryClient, { action: 'delete', id: record.id }),
    deletedText: t('quickMessages.deleted'),
    title: (record) => t('quickMessages.deleteTitle', { shortcode: record.shortcode }),
    message: () => t('quickMessages.deleteText'),
    confirmLabel: t('quickMessages.delete'),
  });

  const columns: TableColumns<QuickMessageView> = [
    {
      header: t('quickMessages.columns.shortcode'),
      cell: (record) => (
        <Stack
          direction="row"
          spacing={0.5}
          sx={{
            alignItems: 'center',
          }}
        >
          <span>{record.shortcode}</span>
          {record.geral && (
            <Chip size="small" variant="outlined" label={t('quickMessages.geralBadge')} />
          )}
          {record.queueId !== null && (
            <Chip
              size="small"
              variant="outlined"
              label={t('quickMessages.queueBadge', {
                queue: queueNames.get(record.queueId) ?? `#${record.queueId}`,
              })}
            />
          )}
        </Stack>
      ),
      sx: { overflowWrap: 'anywhere' },
    },
    {
      header: t('quickMessages.columns.attachment'),
      cell: (record) => record.mediaName ?? t('quickMessages.noAttachment'),
      sx: { overflowWrap: 'anywhere' },
    },
    actionsColumn(t('quickMessages.columns.actions'), (record) => (
      <>
        <RowAction
          title={isLocked(record) ? t('quickMessages.adminOnly') : t('quickMessages.edit')}
          label={t('quickMessages.editQuickMessage', { shortcode: record.shortcode })}
          icon={<EditOutlinedIcon fontSize="small" />}
          disabled={isLocked(record)}
          onClick={() => openDialog(record)}
        />
        <RowAction
          title={isLocked(record) ? t('quickMessages.adminOnly') : t('quickMessages.delete')}
          label={t('quickMessages.deleteQuickMessage', { shortcode: record.shortcode })}
          icon={<DeleteOutlineIcon fontSize="small" />}
          disabled={isLocked(record)}
          onClick={() => confirmDelete.ask(record)}
        />
      </>
    )),
  ];

  return (
    <>
      <PagedTable
        title={t('quickMessages.title')}
        searchLabel={t('quickMessages.search')}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            {t('quickMessages.add')}
          </Button>
        }
        list={list}
        columns={columns}
        emptyText={t('quickMessages.empty')}
        noMatchesText={t('quickMessages.noMatches')}
        scrollTestId="quick-messages-scroll"
      />
      <QuickMessageDialog
        open={dialog.open}
        record={dialog.record}
        sessionKey={dialog.sessionKey}
        managesCompanyWide={managesCompanyWide}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      {confirmDelete.dialog}
    </>
  );
};
