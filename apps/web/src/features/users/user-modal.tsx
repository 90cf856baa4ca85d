import { useState } from 'react';
import { Alert, AlertTitle, Box, FormHelperText, MenuItem, Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { can, profiles, type UserCreateInput, type UserUpdateInput } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { FormText, PasswordField } from '../../components/form-text';
import {
  maxTicketsOf,
  queueLimitsOf,
  userFormSchema,
  type UserFormValues,
} from './user-form.schema';
import { useQueues } from '../../api/queries/queues';
import { useConnections } from '../../api/queries/connections';
import { applyUserEventToCache, createUser, updateUser, useUser, type User } from './users.api';
import { SwitchField } from '../../components/switch-field';
import { DialogForm, DialogFrame, DialogRecord } from '../../components/dialog-frame';
import { useDialogSave } from '../../components/dialog-save';
import { QueuesField } from '../../components/queue-fields';
import { SelectField } from '../../components/select-field';
import { FieldRow } from '../../components/field-row';

const UserForm = ({ user }: { user: User | null }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const isEdit = user !== null;
  const isSelf = user?.id === me.id;
  // The API refuses a change of one's own profile unless the editor is a platform operator.
  const canEditProfile = can(me, 'user-modal:editProfile') && (!isSelf || me.super);
  const canEditQueues = can(me, 'user-modal:editQueues');
  const connectionChoices = useConnections();
  const [limitMessage, setLimitMessage] = useState<string | null>(null);

  const form = useForm<UserFormValues>({
    resolver: zodResolver(userFormSchema(isEdit)),
    defaultValues: {
      name: user?.name ?? '',
      email: user?.email ?? '',
      password: '',
      profile: user?.profile ?? 'user',
      queueIds: user?.queueIds ?? [],
      whatsappId: user?.whatsappId ?? null,
      allTicket: user?.allTicket === 'enabled',
      maxTickets:
        user?.maxTickets === null || user?.maxTickets === undefined ? '' : String(user.maxTickets),
      queueLimits: Object.fromEntries(
        (user?.queueLimits ?? []).map(({ queueId, maxTickets }) => [
          String(queueId),
          String(maxTickets),
        ]),
      ),
    },
  });
  const { control } = form;
  const chosenQueueIds = form.watch('queueIds');
  const queueChoices = useQueues({ enabled: canEditQueues, silent: true });
  const queueName = (queueId: number) =>
    queueChoices.data?.find((queue) => queue.id === queueId)?.name ??
    user?.queues.find((queue) => queue.id === queueId)?.name ??
    String(queueId);

  // Fields the editor may not change are left out, so the API keeps what it has.
  const save = async (values: UserFormValues) => {
    setLimitMessage(null);
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
            maxTickets: maxTicketsOf(values.maxTickets),
            queueLimits: queueLimitsOf(values.queueLimits, values.queueIds),
          }
        : {}),
    };
    const saved = user
      ? await updateUser(user.id, payload)
      : await createUser(payload as UserCreateInput);
    applyUserEventToCache(queryClient, { action: user ? 'update' : 'create', user: saved });
  };
  const dialogSave = useDialogSave(form, {
    save,
    savedText: t('users.saved'),
    codes: { ERR_EMAIL_ALREADY_EXISTS: 'email' },
    // The plan's limit is said in the form, above the fields, with the API's count.
    onRefused: (error) => {
      if (error.code !== 'ERR_PLAN_LIMIT_USERS') return false;
      setLimitMessage(error.message);
      return true;
    },
  });

  return (
    <DialogForm
      title={isEdit ? t('users.modal.editTitle') : t('users.modal.addTitle')}
      {...dialogSave}
      submitLabel={isEdit ? t('common.save') : t('users.modal.add')}
    >
      <Stack spacing={2}>
        {limitMessage !== null && (
          <Alert severity="error" data-testid="user-limit-error">
            <AlertTitle>{t('errors.ERR_PLAN_LIMIT_USERS')}</AlertTitle>
            {limitMessage}
          </Alert>
        )}
        <FieldRow>
          <FormText form={form} name="name" label={t('users.modal.name')} autoFocus />
          <FormText form={form} name="email" type="email" label={t('users.modal.email')} />
        </FieldRow>
        <FieldRow>
          <PasswordField
            form={form}
            name="password"
            label={t('users.modal.password')}
            hint={isEdit ? t('users.modal.passwordHint') : undefined}
          />
          <SelectField
            control={control}
            name="profile"
            label={t('users.modal.profile')}
            disabled={!canEditProfile}
            helperText={isSelf && !canEditProfile ? t('users.modal.ownProfile') : undefined}
          >
            {profiles.map((profile) => (
              <MenuItem key={profile} value={profile}>
                {t(`users.profiles.${profile}`)}
              </MenuItem>
            ))}
          </SelectField>
        </FieldRow>
        <QueuesField
          control={control}
          name="queueIds"
          label={t('users.modal.queues')}
          noQueuesText={t('users.modal.noQueues')}
          saved={user?.queues ?? []}
          disabled={!canEditQueues}
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
        {/* Automatic assignment's limit, set by those who set the queues (the API's rule). */}
        {canEditQueues && (
          <FormText
            form={form}
            name="maxTickets"
            label={t('users.modal.maxTickets')}
            hint={t('users.modal.maxTicketsHint')}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        )}
        {canEditQueues && chosenQueueIds.length > 0 && (
          <FieldRow>
            {chosenQueueIds.map((queueId) => (
              <FormText
                key={queueId}
                form={form}
                name={`queueLimits.${queueId}`}
                label={t('users.modal.queueLimit', { queue: queueName(queueId) })}
                hint={t('users.modal.queueLimitHint')}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
            ))}
          </FieldRow>
        )}
      </Stack>
    </DialogForm>
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
}) => {
  const { t } = useTranslation();
  return (
    <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
      <DialogRecord
        id={userId}
        useRecord={useUser}
        title={t('users.modal.editTitle')}
        loadFailed={t('users.modal.loadFailed')}
      >
        {(user) => <UserForm user={user} />}
      </DialogRecord>
    </DialogFrame>
  );
};
