import { useState } from 'react';
import {
  Box,
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
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SearchIcon from '@mui/icons-material/Search';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { QuickMessageView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { QuickMessageDialog } from './quick-message-dialog';
import {
  applyQuickMessageEventToCache,
  deleteQuickMessage,
  useQuickMessageLiveUpdates,
  useQuickMessagesList,
} from './quick-messages.api';

type DialogState = { open: boolean; record: QuickMessageView | null; sessionKey: number };

// SPEC §2 Quick messages: personal answers are their author's; company-wide ("geral") ones are
// everyone's to use and only admins' to manage, as the API enforces.
export const QuickMessagesPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const managesCompanyWide = me.super || me.profile === 'admin';
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim());
  const { records, isPending, isFetching, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useQuickMessagesList(search);
  const [dialog, setDialog] = useState<DialogState>({ open: false, record: null, sessionKey: 0 });
  const [toDelete, setToDelete] = useState<QuickMessageView | null>(null);
  const scroll = useInfiniteScroll({
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    loadedCount: records.length,
  });

  useQuickMessageLiveUpdates();

  const isLocked = (record: QuickMessageView) => record.geral && !managesCompanyWide;

  const openDialog = (record: QuickMessageView | null) =>
    setDialog((current) => ({ open: true, record, sessionKey: current.sessionKey + 1 }));

  const remove = useMutation({
    mutationFn: (record: QuickMessageView) => deleteQuickMessage(record.id),
    onSuccess: (_data, record) => {
      applyQuickMessageEventToCache(queryClient, { action: 'delete', id: record.id });
      toast.success(t('quickMessages.deleted'));
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
          {t('quickMessages.title')}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t('quickMessages.search')}
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('quickMessages.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
          {t('quickMessages.add')}
        </Button>
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <TableContainer
          ref={scroll.ref}
          onScroll={scroll.onScroll}
          data-testid="quick-messages-scroll"
          sx={{ maxHeight: { xs: 'calc(100vh - 230px)', sm: 'calc(100vh - 190px)' } }}
        >
          <Table stickyHeader size="small" aria-label={t('quickMessages.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('quickMessages.columns.shortcode')}</TableCell>
                <TableCell>{t('quickMessages.columns.attachment')}</TableCell>
                <TableCell align="center" sx={{ width: 120 }}>
                  {t('quickMessages.columns.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {records.map((record) => (
                <TableRow key={record.id} hover>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Stack direction="row" spacing={0.5} alignItems="center">
                      <span>{record.shortcode}</span>
                      {record.geral && (
                        <Chip
                          size="small"
                          variant="outlined"
                          label={t('quickMessages.geralBadge')}
                        />
                      )}
                    </Stack>
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {record.mediaName ?? t('quickMessages.noAttachment')}
                  </TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip
                      title={
                        isLocked(record) ? t('quickMessages.adminOnly') : t('quickMessages.edit')
                      }
                    >
                      {/* The span keeps the tooltip working on a disabled button. */}
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('quickMessages.editQuickMessage', {
                            shortcode: record.shortcode,
                          })}
                          disabled={isLocked(record)}
                          onClick={() => openDialog(record)}
                        >
                          <EditOutlinedIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip
                      title={
                        isLocked(record) ? t('quickMessages.adminOnly') : t('quickMessages.delete')
                      }
                    >
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('quickMessages.deleteQuickMessage', {
                            shortcode: record.shortcode,
                          })}
                          disabled={isLocked(record)}
                          onClick={() => setToDelete(record)}
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
              {isFetching && (
                <TableRow>
                  <TableCell colSpan={3} align="center">
                    <CircularProgress size={24} aria-label={t('app.loading')} />
                  </TableCell>
                </TableRow>
              )}
              {!isPending && !isFetching && records.length === 0 && (
                <TableRow>
                  <TableCell colSpan={3}>
                    <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                      {search ? t('quickMessages.noMatches') : t('quickMessages.empty')}
                    </Box>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>

      <QuickMessageDialog
        open={dialog.open}
        record={dialog.record}
        sessionKey={dialog.sessionKey}
        managesCompanyWide={managesCompanyWide}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={t('quickMessages.deleteTitle', { shortcode: toDelete?.shortcode ?? '' })}
        message={t('quickMessages.deleteText')}
        confirmLabel={t('quickMessages.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
};
