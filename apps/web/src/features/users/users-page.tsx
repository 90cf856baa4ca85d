import { useState } from 'react';
import { Button, Chip, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { can } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { toastError } from '../../api/toasts';
import { useDeleteConfirm } from '../../components/delete-confirm';
import { MessagePage } from '../../components/message-page';
import { PresenceText } from '../../components/presence-dot';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { usePagedList } from '../../lib/use-paged-list';
import { UserModal } from './user-modal';
import {
  applyUserEventToCache,
  deleteUser,
  endUserSessions,
  useUserLiveUpdates,
  usersList,
  type User,
} from './users.api';

type ModalState = { open: boolean; userId: number | null; sessionKey: number };

const UsersManager = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const list = usePagedList(usersList);
  const [modal, setModal] = useState<ModalState>({ open: false, userId: null, sessionKey: 0 });

  useUserLiveUpdates();

  // The API lets only platform operators change a platform operator's account.
  const isLocked = (user: User) => user.super && !me.super;

  const openModal = (userId: number | null) =>
    setModal((current) => ({ open: true, userId, sessionKey: current.sessionKey + 1 }));

  const confirmDelete = useDeleteConfirm({
    remove: (user: User) => deleteUser(user.id),
    onDeleted: (user) => applyUserEventToCache(queryClient, { action: 'delete', userId: user.id }),
    deletedText: t('users.deleted'),
    title: (user) => t('users.deleteTitle', { name: user.name }),
    message: () => t('users.deleteText'),
    confirmLabel: t('users.delete'),
  });

  const columns: TableColumns<User> = [
    { header: t('users.columns.name'), cell: (user) => user.name },
    {
      header: t('users.columns.email'),
      cell: (user) => user.email,
      sx: { wordBreak: 'break-all' },
    },
    {
      header: t('users.columns.profile'),
      cell: (user) => (
        <Stack
          direction="row"
          spacing={0.5}
          sx={{
            alignItems: 'center',
          }}
        >
          <span>{t(`users.profiles.${user.profile}`)}</span>
          {user.super && <Chip size="small" variant="outlined" label={t('users.superBadge')} />}
        </Stack>
      ),
    },
    // Live from company-{id}-presence (useUserLiveUpdates).
    {
      header: t('users.columns.presence'),
      cell: (user) => <PresenceText presence={user.presence} />,
    },
    actionsColumn(t('users.columns.actions'), (user) => (
      <>
        <RowAction
          title={isLocked(user) ? t('users.superOnly') : t('users.edit')}
          label={t('users.editUser', { name: user.name })}
          icon={<EditOutlinedIcon fontSize="small" />}
          disabled={isLocked(user)}
          onClick={() => openModal(user.id)}
        />
        <RowAction
          title={isLocked(user) ? t('users.superOnly') : t('users.endSessions')}
          label={t('users.endSessionsOf', { name: user.name })}
          icon={<LogoutIcon fontSize="small" />}
          disabled={isLocked(user) || user.id === me.id}
          onClick={() =>
            void endUserSessions(user.id).then(
              () => toast.success(t('users.sessionsEnded', { name: user.name })),
              toastError,
            )
          }
        />
        <RowAction
          title={
            user.id === me.id
              ? t('users.cannotDeleteSelf')
              : isLocked(user)
                ? t('users.superOnly')
                : t('users.delete')
          }
          label={t('users.deleteUser', { name: user.name })}
          icon={<DeleteOutlineIcon fontSize="small" />}
          disabled={user.id === me.id || isLocked(user)}
          onClick={() => confirmDelete.ask(user)}
        />
      </>
    )),
  ];

  return (
    <>
      <PagedTable
        title={t('users.title')}
        searchLabel={t('users.search')}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openModal(null)}>
            {t('users.add')}
          </Button>
        }
        list={list}
        columns={columns}
        emptyText={t('users.empty')}
        noMatchesText={t('users.noMatches')}
        scrollTestId="users-scroll"
      />
      <UserModal
        open={modal.open}
        userId={modal.userId}
        sessionKey={modal.sessionKey}
        onClose={() => setModal((current) => ({ ...current, open: false }))}
      />
      {confirmDelete.dialog}
    </>
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
