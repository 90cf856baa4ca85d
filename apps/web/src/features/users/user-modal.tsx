import { useState } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Checkbox,
  Chip,
  CircularProgress,
  FormHelperText,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { can, profiles, type UserCreateInput, type UserUpdateInput } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { toastError } from '../../api/toasts';
import { cssColor } from '../../lib/colors';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui, useFieldError } from '../../lib/forms';
import { userFormSchema, type UserFormValues } from './user-form.schema';
import { useConnections } from '../../api/queries/connections';
import { useQueues } from '../../api/queries/queues';
import {
  applyUserEventToCache,
  createUser,
  updateUser,
  useUser,
  type QueueRef,
  type User,
} from './users.api';
import { SwitchField } from '../../components/switch-field';
import { DialogForm, DialogFrame, DialogLoading } from '../../components/dialog-frame';

const QueueChip = ({ queue }: { queue: QueueRef }) => {
  const color = cssColor(queue.color);
  return (
    <Chip
      size="small"
      label={queue.name}
      sx={{ bgcolor: color, color: (theme) => theme.palette.getContrastText(color) }}
    />
  );
};

const UserForm = ({ user, onClose }: { user: User | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const isEdit = user !== null;
  const isSelf = user?.id === me.id;
  // The API refuses a change of one's own profile unless the editor is a platform operator.
  const canEditProfile = can(me, 'user-modal:editProfile') && (!isSelf || me.super);
  const canEditQueues = can(me, 'user-modal:editQueues');
  const queueChoices = useQueues();
  const connectionChoices = useConnections();
  const [limitMessage, setLimitMessage] = useState<string | null>(null);

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<UserFormValues>({
    resolver: zodResolver(userFormSchema(isEdit)),
    defaultValues: {
      name: user?.name ?? '',
      email: user?.email ?? '',
      password: '',
      profile: user?.profile ?? 'user',
      queueIds: user?.queueIds ?? [],
      whatsappId: user?.whatsappId ?? null,
      allTicket: user?.allTicket === 'enabled',
    },
  });

  const queueById = new Map<number, QueueRef>();
  user?.queues.forEach((queue) => queueById.set(queue.id, queue));
  queueChoices.data?.forEach((queue) => queueById.set(queue.id, queue));

  const onSubmit = async (values: UserFormValues) => {
    setLimitMessage(null);
    await waitBeforeSubmit();
    // Fields the editor may not change are left out, so the API keeps what it has.
    const payload: UserUpdateInput = {
      name: values.name,
      email: values.email,
      password: values.password,
      ...(canEditProfile ? { profile: values.profile } : {}),
      ...(canEditQueues
        ? {
            queueIds: values.queueIds,
            whatsappId: values.whatsappId,
            allTicket: values.allTicket ? 'enabled' : 'desabled',
          }
        : {}),
    };
    try {
      const saved = user
        ? await updateUser(user.id, payload)
        : await createUser(payload as UserCreateInput);
      applyUserEventToCache(queryClient, { action: user ? 'update' : 'create', user: saved });
      toast.success(t('users.saved'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_PLAN_LIMIT_USERS') {
        setLimitMessage(error.message);
      } else if (error instanceof ApiError && error.code === 'ERR_EMAIL_ALREADY_EXISTS') {
        setError('email', { message: 'errors.ERR_EMAIL_ALREADY_EXISTS' });
      } else {
        toastError(error);
      }
    }
  };

  const fieldError = useFieldError(errors);

  return (
    <DialogForm
      title={isEdit ? t('users.modal.editTitle') : t('users.modal.addTitle')}
      onSubmit={handleSubmit(onSubmit)}
      isSubmitting={isSubmitting}
      submitLabel={isEdit ? t('common.save') : t('users.modal.add')}
    >
      <Stack spacing={2}>
        {limitMessage !== null && (
          <Alert severity="error" data-testid="user-limit-error">
            <AlertTitle>{t('errors.ERR_PLAN_LIMIT_USERS')}</AlertTitle>
            {limitMessage}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            {...registerMui(register, 'name')}
            label={t('users.modal.name')}
            autoComplete="off"
            autoFocus
            fullWidth
            {...fieldError('name')}
          />
          <TextField
            {...registerMui(register, 'email')}
            type="email"
            label={t('users.modal.email')}
            autoComplete="off"
            fullWidth
            {...fieldError('email')}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            {...registerMui(register, 'password')}
            type="password"
            label={t('users.modal.password')}
            autoComplete="new-password"
            fullWidth
            {...fieldError('password')}
            helperText={
              errors.password?.message
                ? t(errors.password.message)
                : isEdit
                  ? t('users.modal.passwordHint')
                  : undefined
            }
          />
          <Controller
            name="profile"
            control={control}
            render={({ field: { ref, ...field } }) => (
              <TextField
                {...field}
                inputRef={ref}
                select
                label={t('users.modal.profile')}
                fullWidth
                disabled={!canEditProfile}
                helperText={isSelf && !canEditProfile ? t('users.modal.ownProfile') : undefined}
              >
                {profiles.map((profile) => (
                  <MenuItem key={profile} value={profile}>
                    {t(`users.profiles.${profile}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
        <Controller
          name="queueIds"
          control={control}
          render={({ field: { ref, value, onChange, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              select
              label={t('users.modal.queues')}
              fullWidth
              disabled={!canEditQueues}
              value={value}
              onChange={(event) => onChange(event.target.value as unknown as number[])}
              helperText={
                queueChoices.isSuccess && queueChoices.data.length === 0
                  ? t('users.modal.noQueues')
                  : undefined
              }
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (selected) => (
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {(selected as number[]).map((id) => {
                        const queue = queueById.get(id);
                        return queue ? <QueueChip key={id} queue={queue} /> : null;
                      })}
                    </Box>
                  ),
                },
              }}
            >
              {queueChoices.isPending && (
                <MenuItem disabled>
                  <CircularProgress size={18} sx={{ mr: 1 }} />
                  {t('app.loading')}
                </MenuItem>
              )}
              {(queueChoices.data ?? []).map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  <Checkbox size="small" checked={value.includes(queue.id)} />
                  <Box
                    component="span"
                    sx={{
                      width: 12,
                      height: 12,
                      borderRadius: '50%',
                      bgcolor: cssColor(queue.color),
                      mr: 1,
                      flexShrink: 0,
                    }}
                  />
                  <ListItemText primary={queue.name} />
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {/* The connection new tickets of this user go out through (editable with the queues). */}
        <Controller
          name="whatsappId"
          control={control}
          render={({ field: { ref, value, onChange, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              select
              label={t('users.modal.connection')}
              value={value ?? ''}
              onChange={(event) =>
                onChange(event.target.value === '' ? null : Number(event.target.value))
              }
              disabled={!canEditQueues}
              fullWidth
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{t('users.modal.noConnection')}</MenuItem>
              {connectionChoices.data?.map((connection) => (
                <MenuItem key={connection.id} value={connection.id}>
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Box>
          <SwitchField
            control={control}
            name="allTicket"
            label={t('users.modal.allTicket')}
            disabled={!canEditQueues}
          />
          <FormHelperText sx={{ mt: 0 }}>{t('users.modal.allTicketHint')}</FormHelperText>
        </Box>
      </Stack>
    </DialogForm>
  );
};

const EditUserForm = ({ userId, onClose }: { userId: number; onClose: () => void }) => {
  const { t } = useTranslation();
  const { data, isError } = useUser(userId);
  if (data) return <UserForm user={data} onClose={onClose} />;
  return (
    <DialogLoading
      title={t('users.modal.editTitle')}
      isError={isError}
      errorText={t('users.modal.loadFailed')}
    />
  );
};

// The user modal (SPEC §2): adds a user, or edits one loaded fresh from GET /users/{id}.
// The content stays while the dialog fades out; a new sessionKey gives each opening a fresh form.
export const UserModal = ({
  open,
  userId,
  sessionKey,
  onClose,
}: {
  open: boolean;
  userId: number | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
    {userId === null ? (
      <UserForm user={null} onClose={onClose} />
    ) : (
      <EditUserForm userId={userId} onClose={onClose} />
    )}
  </DialogFrame>
);
