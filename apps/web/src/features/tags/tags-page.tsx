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
import { can, type TagView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { cssColor } from '../../lib/colors';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { TagModal } from './tag-modal';
import { applyTagEventToCache, deleteTag, useTagLiveUpdates, useTagsList } from './tags.api';

type ModalState = { open: boolean; tag: TagView | null; sessionKey: number };

export const TagChip = ({ tag }: { tag: Pick<TagView, 'name' | 'color'> }) => {
  const color = cssColor(tag.color);
  return (
    <Chip
      size="small"
      label={tag.name}
      sx={{ bgcolor: color, color: (theme) => theme.palette.getContrastText(color) }}
    />
  );
};

// SPEC §2 Tags: searchable infinite-scroll table of name chip, ticket count, actions. Every profile
// reads it; only those allowed to manage tags see the add, edit and delete buttons.
export const TagsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canManage = can(me, 'tags:manage');
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim());
  const { tags, isPending, isFetching, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useTagsList(search);
  const [modal, setModal] = useState<ModalState>({ open: false, tag: null, sessionKey: 0 });
  const [toDelete, setToDelete] = useState<TagView | null>(null);
  const scroll = useInfiniteScroll({
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    loadedCount: tags.length,
  });
  const columns = canManage ? 4 : 3;

  useTagLiveUpdates();

  const openModal = (tag: TagView | null) =>
    setModal((current) => ({ open: true, tag, sessionKey: current.sessionKey + 1 }));

  const remove = useMutation({
    mutationFn: (tag: TagView) => deleteTag(tag.id),
    onSuccess: (_data, tag) => {
      applyTagEventToCache(queryClient, { action: 'delete', tagId: tag.id });
      toast.success(t('tags.deleted'));
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
          {t('tags.title')}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t('tags.search')}
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('tags.search') },
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
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openModal(null)}>
            {t('tags.add')}
          </Button>
        )}
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <TableContainer
          ref={scroll.ref}
          onScroll={scroll.onScroll}
          data-testid="tags-scroll"
          sx={{ maxHeight: { xs: 'calc(100vh - 230px)', sm: 'calc(100vh - 190px)' } }}
        >
          <Table stickyHeader size="small" aria-label={t('tags.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('tags.columns.name')}</TableCell>
                <TableCell align="center">{t('tags.columns.tickets')}</TableCell>
                <TableCell align="center">{t('tags.columns.kanban')}</TableCell>
                {canManage && (
                  <TableCell align="center" sx={{ width: 120 }}>
                    {t('tags.columns.actions')}
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {tags.map((tag) => (
                <TableRow key={tag.id} hover>
                  <TableCell>
                    <TagChip tag={tag} />
                  </TableCell>
                  <TableCell align="center">{tag.ticketsCount}</TableCell>
                  <TableCell align="center">
                    {tag.kanban === 1 ? t('tags.yes') : t('tags.no')}
                  </TableCell>
                  {canManage && (
                    <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={t('tags.edit')}>
                        <IconButton
                          size="small"
                          aria-label={t('tags.editTag', { name: tag.name })}
                          onClick={() => openModal(tag)}
                        >
                          <EditOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('tags.delete')}>
                        <IconButton
                          size="small"
                          aria-label={t('tags.deleteTag', { name: tag.name })}
                          onClick={() => setToDelete(tag)}
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
              {!isPending && !isFetching && tags.length === 0 && (
                <TableRow>
                  <TableCell colSpan={columns}>
                    <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                      {search ? t('tags.noMatches') : t('tags.empty')}
                    </Box>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>

      {canManage && (
        <TagModal
          open={modal.open}
          tag={modal.tag}
          sessionKey={modal.sessionKey}
          onClose={() => setModal((current) => ({ ...current, open: false }))}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title={t('tags.deleteTitle', { name: toDelete?.name ?? '' })}
        message={t('tags.deleteText', { count: toDelete?.ticketsCount ?? 0 })}
        confirmLabel={t('tags.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
};
