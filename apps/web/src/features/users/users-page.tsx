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
import { can } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { MessagePage } from '../../components/message-page';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { UserModal } from './user-modal';
import {
  applyUserEventToCache,
  deleteUser,
  useUserLiveUpdates,
  useUsersList,
  type User,
} from './users.api';

type ModalState = { open: boolean; userId: number | null; sessionKey: number };

const UsersManager = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim());
  const { users, isPending, isFetching, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useUsersList(search);
  const [modal, setModal] = useState<ModalState>({ open: false, userId: null, sessionKey: 0 });
  const [toDelete, setToDelete] = useState<User | null>(null);
  const scroll = useInfiniteScroll({
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    loadedCount: users.length,
  });

  useUserLiveUpdates();

  // The API lets only platform operators change a platform operator's account.
  const isLocked = (user: User) => user.super && !me.super;

  const openModal = (userId: number | null) =>
    setModal((current) => ({ open: true, userId, sessionKey: current.sessionKey + 1 }));

  const remove = useMutation({
    mutationFn: (user: User) => deleteUser(user.id),
    onSuccess: (_data, user) => {
      applyUserEventToCache(queryClient, { action: 'delete', userId: user.id });
      toast.success(t('users.deleted'));
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
          {t('users.title')}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t('users.search')}
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('users.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openModal(null)}>
          {t('users.add')}
        </Button>
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <TableContainer
          ref={scroll.ref}
          onScroll={scroll.onScroll}
          data-testid="users-scroll"
          sx={{ maxHeight: { xs: 'calc(100vh - 230px)', sm: 'calc(100vh - 190px)' } }}
        >
          <Table stickyHeader size="small" aria-label={t('users.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('users.columns.name')}</TableCell>
                <TableCell>{t('users.columns.email')}</TableCell>
                <TableCell>{t('users.columns.profile')}</TableCell>
                <TableCell align="center" sx={{ width: 120 }}>
                  {t('users.columns.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {users.map((user) => (
                <TableRow key={user.id} hover>
                  <TableCell>{user.name}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{user.email}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={0.5} alignItems="center">
                      <span>{t(`users.profiles.${user.profile}`)}</span>
                      {user.super && (
                        <Chip size="small" variant="outlined" label={t('users.superBadge')} />
                      )}
                    </Stack>
                  </TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={isLocked(user) ? t('users.superOnly') : t('users.edit')}>
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('users.editUser', { name: user.name })}
                          disabled={isLocked(user)}
                          onClick={() => openModal(user.id)}
                        >
                          <EditOutlinedIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip
                      title={
                        user.id === me.id
                          ? t('users.cannotDeleteSelf')
                          : isLocked(user)
                            ? t('users.superOnly')
                            : t('users.delete')
                      }
                    >
                      {/* The span keeps the tooltip working on a disabled button. */}
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('users.deleteUser', { name: user.name })}
                          disabled={user.id === me.id || isLocked(user)}
                          onClick={() => setToDelete(user)}
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
                  <TableCell colSpan={4} align="center">
                    <CircularProgress size={24} aria-label={t('app.loading')} />
                  </TableCell>
                </TableRow>
              )}
              {!isPending && !isFetching && users.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4}>
                    <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                      {search ? t('users.noMatches') : t('users.empty')}
                    </Box>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>

      <UserModal
        open={modal.open}
        userId={modal.userId}
        sessionKey={modal.sessionKey}
        onClose={() => setModal((current) => ({ ...current, open: false }))}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={t('users.deleteTitle', { name: toDelete?.name ?? '' })}
        message={t('users.deleteText')}
        confirmLabel={t('users.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
};

// SPEC §2 Users: admins only; other profiles get a notice instead of a failing list.
export const UsersPage = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  if (!can(user, 'users:manage')) {
    return <MessagePage title={t('users.noPermissionTitle')} text={t('users.noPermissionText')} />;
  }
  return <UsersManager />;
};
