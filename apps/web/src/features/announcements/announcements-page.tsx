import { useState } from 'react';
import { Button, Chip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { actionsColumn, PagedTable, RowAction } from '../../components/paged-table';
import { usePagedList } from '../../lib/use-paged-list';
import { AnnouncementDialog } from './announcement-dialog';
import {
  announcementsList,
  changeManagementLists,
  changePopoverList,
  deleteAnnouncement,
  useManagementLiveUpdates,
  type Announcement,
} from './announcements.api';
import { PriorityChip } from './priority';

// SPEC §2: announcements table (super users only; the route guard checks).
export const AnnouncementsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = usePagedList(announcementsList);
  useManagementLiveUpdates();

  const [editor, setEditor] = useState<{
    open: boolean;
    announcement: Announcement | null;
    sessionKey: number;
  }>({
    open: false,
    announcement: null,
    sessionKey: 0,
  });
  // A new sessionKey gives each opening a fresh form.
  const openEditor = (announcement: Announcement | null) =>
    setEditor((current) => ({ open: true, announcement, sessionKey: current.sessionKey + 1 }));
  const [removal, setRemoval] = useState<{ open: boolean; announcement: Announcement | null }>({
    open: false,
    announcement: null,
  });

  // Do not wait for the socket echo: show the saved record at once (the echo is idempotent).
  const showSaved = (record: Announcement) => {
    changeManagementLists(queryClient, { upsert: record });
    changePopoverList(queryClient, { upsert: record }, true);
  };

  const remove = useMutation({
    mutationFn: (id: number) => deleteAnnouncement(id),
    onSuccess: (_data, id) => {
      changeManagementLists(queryClient, { remove: id });
      changePopoverList(queryClient, { remove: id }, true);
      toast.success(t('announcements.toasts.deleted'));
      setRemoval((current) => ({ ...current, open: false }));
    },
  });

  return (
    <>
      <PagedTable
        title={t('announcements.title')}
        stackBelow="md"
        searchLabel={t('announcements.search')}
        noMatchesText={t('announcements.noMatches')}
        emptyText={t('announcements.empty')}
        scrollTestId="announcements-table"
        list={list}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openEditor(null)}>
            {t('announcements.add')}
          </Button>
        }
        columns={[
          {
            header: t('announcements.columns.title'),
            cell: (announcement: Announcement) => announcement.title,
            sx: { maxWidth: 360, overflowWrap: 'anywhere', fontWeight: 500 },
          },
          {
            header: t('announcements.columns.priority'),
            cell: (announcement) => <PriorityChip priority={announcement.priority} />,
          },
          {
            header: t('announcements.columns.attachment'),
            cell: (announcement) => announcement.mediaName || '—',
            sx: { maxWidth: 240, overflowWrap: 'anywhere' },
          },
          {
            header: t('announcements.columns.status'),
            cell: (announcement) => (
              <Chip
                size="small"
                variant="outlined"
                color={announcement.status ? 'success' : 'default'}
                label={t(
                  announcement.status
                    ? 'announcements.status.active'
                    : 'announcements.status.inactive',
                )}
              />
            ),
          },
          actionsColumn(t('announcements.columns.actions'), (announcement: Announcement) => (
            <>
              <RowAction
                title={t('announcements.edit')}
                label={t('announcements.editNamed', { title: announcement.title })}
                icon={<EditIcon fontSize="small" />}
                onClick={() => openEditor(announcement)}
              />
              <RowAction
                title={t('announcements.remove')}
                label={t('announcements.removeNamed', { title: announcement.title })}
                icon={<DeleteIcon fontSize="small" />}
                onClick={() => setRemoval({ open: true, announcement })}
              />
            </>
          )),
        ]}
      />

      <AnnouncementDialog
        open={editor.open}
        announcement={editor.announcement}
        sessionKey={editor.sessionKey}
        onClose={() => setEditor((current) => ({ ...current, open: false }))}
        onSaved={showSaved}
      />
      <ConfirmDialog
        open={removal.open}
        title={t('announcements.delete.title')}
        message={t('announcements.delete.text', { title: removal.announcement?.title ?? '' })}
        confirmLabel={t('announcements.remove')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => removal.announcement && remove.mutate(removal.announcement.id)}
        onClose={() => setRemoval((current) => ({ ...current, open: false }))}
        onExited={() => setRemoval({ open: false, announcement: null })}
      />
    </>
  );
};
