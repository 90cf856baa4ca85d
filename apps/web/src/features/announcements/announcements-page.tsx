import { useState, type ReactNode } from 'react';
import {
  Button,
  Chip,
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
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import SearchIcon from '@mui/icons-material/Search';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { AnnouncementDialog } from './announcement-dialog';
import {
  changeManagementLists,
  changePopoverList,
  deleteAnnouncement,
  recordsOf,
  useAnnouncementList,
  useManagementLiveUpdates,
  type Announcement,
} from './announcements.api';
import { PriorityChip } from './priority';

const COLUMNS = 5;

const MessageRow = ({ children }: { children: ReactNode }) => (
  <TableRow>
    <TableCell colSpan={COLUMNS} align="center" sx={{ py: 4, color: 'text.secondary' }}>
      {children}
    </TableCell>
  </TableRow>
);

// SPEC §2: announcements table (super users only; the route guard checks).
export const AnnouncementsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const list = useAnnouncementList(searchParam);
  useManagementLiveUpdates();
  const records = recordsOf(list.data);
  const scroll = useInfiniteScroll({
    hasNextPage: list.hasNextPage,
    isFetchingNextPage: list.isFetchingNextPage,
    fetchNextPage: list.fetchNextPage,
    loadedCount: records.length,
  });

  const [editor, setEditor] = useState<{ open: boolean; announcement: Announcement | null }>({
    open: false,
    announcement: null,
  });
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
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{
          alignItems: 'center',
          flexWrap: 'wrap',
          rowGap: 1.5,
        }}
      >
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('announcements.title')}
        </Typography>
        <TextField
          size="small"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('announcements.search')}
          sx={{ width: { xs: '100%', sm: 260 } }}
          slotProps={{
            htmlInput: { 'aria-label': t('announcements.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setEditor({ open: true, announcement: null })}
        >
          {t('announcements.add')}
        </Button>
      </Stack>

      <TableContainer
        component={Paper}
        variant="outlined"
        ref={scroll.ref}
        onScroll={scroll.onScroll}
        data-testid="announcements-table"
        sx={{ maxHeight: 'calc(100vh - 200px)', minHeight: 240 }}
      >
        <Table stickyHeader size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('announcements.columns.title')}</TableCell>
              <TableCell>{t('announcements.columns.priority')}</TableCell>
              <TableCell>{t('announcements.columns.attachment')}</TableCell>
              <TableCell>{t('announcements.columns.status')}</TableCell>
              <TableCell align="right">{t('announcements.columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((announcement) => (
              <TableRow key={announcement.id} hover>
                <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere', fontWeight: 500 }}>
                  {announcement.title}
                </TableCell>
                <TableCell>
                  <PriorityChip priority={announcement.priority} />
                </TableCell>
                <TableCell sx={{ maxWidth: 240, overflowWrap: 'anywhere' }}>
                  {announcement.mediaName || '—'}
                </TableCell>
                <TableCell>
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
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('announcements.edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('announcements.editNamed', { title: announcement.title })}
                      onClick={() => setEditor({ open: true, announcement })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('announcements.remove')}>
                    <IconButton
                      size="small"
                      aria-label={t('announcements.removeNamed', { title: announcement.title })}
                      onClick={() => setRemoval({ open: true, announcement })}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {list.isPending && (
              <MessageRow>
                <CircularProgress size={28} aria-label={t('app.loading')} />
              </MessageRow>
            )}
            {!list.isPending && records.length === 0 && (
              <MessageRow>
                {t(list.isError ? 'announcements.loadError' : 'announcements.empty')}
              </MessageRow>
            )}
            {list.isFetchingNextPage && (
              <MessageRow>
                <CircularProgress size={20} aria-label={t('app.loading')} />
              </MessageRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>

      <AnnouncementDialog
        open={editor.open}
        announcement={editor.announcement}
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
    </Stack>
  );
};
