import { useState } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SearchIcon from '@mui/icons-material/Search';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { can, type FileListView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { FileListDialog } from './file-list-dialog';
import {
  applyFileListEventToCache,
  deleteFileList,
  useFileListLiveUpdates,
  useFilesList,
} from './files.api';

type DialogState = { open: boolean; fileList: FileListView | null; sessionKey: number };

// SPEC §2 Files: a searchable infinite-scroll table of name and actions. Lists are managed by
// those who may (admins: the page sits under Administration); others only read them.
export const FilesPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canManage = can(me, 'files:manage');
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim());
  const { files, isPending, isFetching, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useFilesList(search);
  const [dialog, setDialog] = useState<DialogState>({ open: false, fileList: null, sessionKey: 0 });
  const [toDelete, setToDelete] = useState<FileListView | null>(null);
  const scroll = useInfiniteScroll({
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    loadedCount: files.length,
  });
  const columns = canManage ? 2 : 1;

  useFileListLiveUpdates();

  const openDialog = (fileList: FileListView | null) =>
    setDialog((current) => ({ open: true, fileList, sessionKey: current.sessionKey + 1 }));

  const remove = useMutation({
    mutationFn: (fileList: FileListView) => deleteFileList(fileList.id),
    onSuccess: (_data, fileList) => {
      applyFileListEventToCache(queryClient, { action: 'delete', fileId: fileList.id });
      toast.success(t('files.deleted'));
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
          {t('files.title')}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t('files.search')}
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('files.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        {canManage && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            {t('files.add')}
          </Button>
        )}
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <TableContainer
          ref={scroll.ref}
          onScroll={scroll.onScroll}
          data-testid="files-scroll"
          sx={{ maxHeight: { xs: 'calc(100vh - 230px)', sm: 'calc(100vh - 190px)' } }}
        >
          <Table stickyHeader size="small" aria-label={t('files.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('files.columns.name')}</TableCell>
                {canManage && (
                  <TableCell align="center" sx={{ width: 120 }}>
                    {t('files.columns.actions')}
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {files.map((fileList) => (
                <TableRow key={fileList.id} hover>
                  <TableCell>{fileList.name}</TableCell>
                  {canManage && (
                    <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={t('files.edit')}>
                        <IconButton
                          size="small"
                          aria-label={t('files.editList', { name: fileList.name })}
                          onClick={() => openDialog(fileList)}
                        >
                          <EditOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('files.delete')}>
                        <IconButton
                          size="small"
                          aria-label={t('files.deleteList', { name: fileList.name })}
                          onClick={() => setToDelete(fileList)}
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  )}
                </TableRow>
              ))}
              {isFetching && (
                <TableRow>
                  <TableCell colSpan={columns} align="center">
                    <CircularProgress size={24} aria-label={t('app.loading')} />
                  </TableCell>
                </TableRow>
              )}
              {!isPending && !isFetching && files.length === 0 && (
                <TableRow>
                  <TableCell colSpan={columns}>
                    <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                      {search ? t('files.noMatches') : t('files.empty')}
                    </Box>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>

      {canManage && (
        <FileListDialog
          open={dialog.open}
          fileList={dialog.fileList}
          sessionKey={dialog.sessionKey}
          onClose={() => setDialog((current) => ({ ...current, open: false }))}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title={t('files.deleteTitle', { name: toDelete?.name ?? '' })}
        message={t('files.deleteText')}
        confirmLabel={t('files.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
};
