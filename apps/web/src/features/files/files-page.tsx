import { useState } from 'react';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, type FileListView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { useDeleteConfirm } from '../../components/delete-confirm';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { usePagedList } from '../../lib/use-paged-list';
import { FileListDialog } from './file-list-dialog';
import {
  applyFileListEventToCache,
  deleteFileList,
  filesList,
  useFileListLiveUpdates,
} from './files.api';

type DialogState = { open: boolean; fileList: FileListView | null; sessionKey: number };

// SPEC §2 Files: a searchable infinite-scroll table of name and actions. Lists are managed by
// those who may (admins: the page sits under Administration); others only read them.
export const FilesPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canManage = can(me, 'files:manage');
  const list = usePagedList(filesList);
  const [dialog, setDialog] = useState<DialogState>({ open: false, fileList: null, sessionKey: 0 });

  useFileListLiveUpdates();

  const openDialog = (fileList: FileListView | null) =>
    setDialog((current) => ({ open: true, fileList, sessionKey: current.sessionKey + 1 }));

  const confirmDelete = useDeleteConfirm({
    remove: (fileList: FileListView) => deleteFileList(fileList.id),
    onDeleted: (fileList) =>
      applyFileListEventToCache(queryClient, { action: 'delete', fileId: fileList.id }),
    deletedText: t('files.deleted'),
    title: (fileList) => t('files.deleteTitle', { name: fileList.name }),
    message: () => t('files.deleteText'),
    confirmLabel: t('files.delete'),
  });

  const columns: TableColumns<FileListView> = [
    { header: t('files.columns.name'), cell: (fileList) => fileList.name },
    canManage &&
      actionsColumn(t('files.columns.actions'), (fileList) => (
        <>
          <RowAction
            title={t('files.edit')}
            label={t('files.editList', { name: fileList.name })}
            icon={<EditOutlinedIcon fontSize="small" />}
            onClick={() => openDialog(fileList)}
          />
          <RowAction
            title={t('files.delete')}
            label={t('files.deleteList', { name: fileList.name })}
            icon={<DeleteOutlineIcon fontSize="small" />}
            onClick={() => confirmDelete.ask(fileList)}
          />
        </>
      )),
  ];

  return (
    <>
      <PagedTable
        title={t('files.title')}
        searchLabel={t('files.search')}
        toolbar={
          canManage && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
              {t('files.add')}
            </Button>
          )
        }
        list={list}
        columns={columns}
        emptyText={t('files.empty')}
        noMatchesText={t('files.noMatches')}
        scrollTestId="files-scroll"
      />
      {canManage && (
        <FileListDialog
          open={dialog.open}
          fileList={dialog.fileList}
          sessionKey={dialog.sessionKey}
          onClose={() => setDialog((current) => ({ ...current, open: false }))}
        />
      )}
      {confirmDelete.dialog}
    </>
  );
};
