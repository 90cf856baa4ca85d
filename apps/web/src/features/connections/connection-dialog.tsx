import { useState } from 'react';
import {
  Alert,
  Box,
  Checkbox,
  Chip,
  CircularProgress,
  IconButton,
  InputAdornment,
  ListItemText,
  MenuItem,
  Stack,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import RefreshIcon from '@mui/icons-material/Refresh';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { providers } from '@atendi/shared';
import { Controller, useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http-client';
import { ERROR_TOAST_MS, toastError } from '../../api/toasts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IntegrationSelect, useCanPickIntegration } from '../../components/integration-select';
import { PromptSelect, useCanPickPrompt } from '../../components/prompt-select';
import { SchedulesEditor } from '../../components/schedules-editor';
import { cssColor } from '../../lib/colors';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui, useFieldError } from '../../lib/forms';
import {
  connectionFormDefaults,
  connectionFormSchema,
  tabOfField,
  toConnectionPayload,
  type ConnectionFormField,
  type ConnectionFormValues,
  type ConnectionTab,
} from './connection-form.schema';
import { applyWhatsappEventToCache, useConnection } from '../../api/queries/connections';
import { useQueues } from '../../api/queries/queues';
import {
  createConnection,
  regenerateToken,
  updateConnection,
  type Connection,
  type QueueChoice,
} from './connections.api';
import { SwitchField } from '../../components/switch-field';
import { FieldRow } from '../../components/field-row';
import { DialogForm, DialogFrame, DialogLoading } from '../../components/dialog-frame';

const isFormField = (name: string): name is ConnectionFormField => name in tabOfField;

const QueueDot = ({ color }: { color: string }) => (
  <Box
    component="span"
    sx={{
      width: 12,
      height: 12,
      borderRadius: '50%',
      bgcolor: cssColor(color),
      mr: 1,
      flexShrink: 0,
    }}
  />
);

// The external-API token: read-only, copied with one click, replaced after a confirmation.
const TokenField = ({ connection }: { connection: Connection }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // A new token reaches the cached connection, and so this field.
  const token = connection.token ?? '';
  const [isConfirming, setConfirming] = useState(false);
  const regenerate = useMutation({
    mutationFn: () => regenerateToken(connection.id),
    onSuccess: ({ token: fresh }) => {
      applyWhatsappEventToCache(queryClient, {
        action: 'update',
        whatsapp: { ...connection, token: fresh },
      });
      toast.success(t('connections.form.tokenRegenerated'));
    },
    onSettled: () => setConfirming(false),
  });

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token);
      toast.success(t('connections.form.tokenCopied'));
    } catch {
      toast.error(t('connections.form.copyFailed'), { autoClose: ERROR_TOAST_MS });
    }
  };

  return (
    <>
      <TextField
        label={t('connections.form.token')}
        value={token}
        fullWidth
        helperText={t('connections.form.tokenHint')}
        slotProps={{
          input: {
            readOnly: true,
            sx: { fontFamily: 'monospace' },
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t('connections.form.copyToken')}>
                  <IconButton
                    aria-label={t('connections.form.copyToken')}
                    onClick={() => void copy()}
                    disabled={!token}
                    edge="end"
                  >
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('connections.form.regenerateToken')}>
                  <IconButton
                    aria-label={t('connections.form.regenerateToken')}
                    onClick={() => setConfirming(true)}
                  >
                    <RefreshIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <ConfirmDialog
        open={isConfirming}
        title={t('connections.form.regenerateTitle')}
        message={t('connections.form.regenerateText')}
        confirmLabel={t('connections.form.regenerate')}
        isBusy={regenerate.isPending}
        onConfirm={() => regenerate.mutate()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
};

const ConnectionForm = ({
  connection,
  initialTab = 'general',
  onClose,
}: {
  connection: Connection | null;
  initialTab?: ConnectionTab;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<ConnectionTab>(initialTab);
  const queues = useQueues();
  const canPickPrompt = useCanPickPrompt();
  const canPickIntegration = useCanPickIntegration();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConnectionFormValues>({
    resolver: zodResolver(connectionFormSchema(Boolean(connection?.hasCloudAccessToken))),
    defaultValues: connectionFormDefaults(connection),
  });
  const provider = useWatch({ control, name: 'provider' });
  const isCloud = provider === 'cloud';
  const shownTab = tab === 'cloud' && !isCloud ? 'general' : tab;

  const queueById = new Map<number, QueueChoice>();
  connection?.queues.forEach((queue) => queueById.set(queue.id, queue));
  queues.data?.forEach((queue) => queueById.set(queue.id, queue));

  // A refused save shows the tab that holds the first field in error.
  const showFirstError = (fields: ConnectionFormField[]) => {
    const first = fields.find(isFormField);
    if (first) setTab(tabOfField[first]);
  };

  const onInvalid = (fieldErrors: FieldErrors<ConnectionFormValues>) =>
    showFirstError(Object.keys(fieldErrors) as ConnectionFormField[]);

  const onSubmit = async (values: ConnectionFormValues) => {
    await waitBeforeSubmit();
    const payload = toConnectionPayload(values);
    try {
      const saved = connection
        ? await updateConnection(connection.id, payload)
        : await createConnection(payload);
      applyWhatsappEventToCache(queryClient, {
        action: connection ? 'update' : 'create',
        whatsapp: saved,
      });
      toast.success(t('connections.saved'));
      onClose();
    } catch (error) {
      // ERR_NO_OTHER_WHATSAPP, ERR_PLAN_LIMIT_CONNECTIONS and the rest: a toast with the text.
      toastError(error);
      if (!(error instanceof ApiError)) return;
      if (error.code === 'ERR_WAPP_GREETING_REQUIRED') {
        setError('greetingMessage', { message: 'connections.validation.greetingRequired' });
        setTab('general');
      } else if (error.code === 'ERR_PROVIDER_UNAVAILABLE') {
        setError('provider', { message: 'errors.ERR_PROVIDER_UNAVAILABLE' });
        setTab('general');
      } else if (error.fields) {
        const fields = Object.keys(error.fields).filter(isFormField);
        fields.forEach((field) => setError(field, { message: 'errors.ERR_VALIDATION' }));
        showFirstError(fields);
      }
    }
  };

  const fieldError = useFieldError(errors);
  // Blank-able selects show their "none" entry instead of an empty box.
  const noneSelect = {
    select: { displayEmpty: true },
    inputLabel: { shrink: true },
  };

  const textArea = (
    name: 'greetingMessage' | 'complationMessage' | 'outOfHoursMessage' | 'ratingMessage',
    hint?: string,
  ) => (
    <TextField
      {...registerMui(register, name)}
      label={t(`connections.form.${name}`)}
      multiline
      minRows={2}
      maxRows={8}
      fullWidth
      {...fieldError(name, hint)}
    />
  );

  const minutesField = (
    name: 'timeToTransfer' | 'expiresTicket' | 'timeUseBotQueues' | 'maxUseBotQueues',
  ) => (
    <TextField
      {...registerMui(register, name)}
      label={t(`connections.form.${name}`)}
      fullWidth
      slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      {...fieldError(name, t(`connections.form.${name}Hint`))}
    />
  );

  // Saved secrets are never sent back: an empty input keeps them.
  const secretHint = (isSaved: boolean | undefined) =>
    isSaved ? t('connections.form.secretSaved') : undefined;

  return (
    <DialogForm
      title={connection ? t('connections.dialog.editTitle') : t('connections.dialog.addTitle')}
      header={
        <Tabs
          value={shownTab}
          onChange={(_event, value: ConnectionTab) => setTab(value)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: 3 }}
        >
          <Tab value="general" label={t('connections.dialog.generalTab')} />
          <Tab value="tickets" label={t('connections.dialog.ticketsTab')} />
          <Tab value="hours" label={t('connections.dialog.hoursTab')} />
          {isCloud && <Tab value="cloud" label={t('connections.dialog.cloudTab')} />}
        </Tabs>
      }
      onSubmit={handleSubmit(onSubmit, onInvalid)}
      isSubmitting={isSubmitting}
      submitLabel={connection ? t('common.save') : t('connections.dialog.add')}
    >
      {shownTab === 'general' && (
        <Stack spacing={2.5}>
          <FieldRow>
            <TextField
              {...registerMui(register, 'name')}
              label={t('connections.form.name')}
              autoComplete="off"
              autoFocus
              fullWidth
              {...fieldError('name')}
            />
            <Controller
              name="provider"
              control={control}
              render={({ field: { ref, ...field } }) => (
                <TextField
                  {...field}
                  inputRef={ref}
                  select
                  label={t('connections.form.provider')}
                  fullWidth
                  {...fieldError('provider')}
                >
                  {providers.map((value) => (
                    <MenuItem key={value} value={value}>
                      {t(`connections.providers.${value}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </FieldRow>
          <SwitchField control={control} name="isDefault" label={t('connections.form.isDefault')} />
          <Controller
            name="queueIds"
            control={control}
            render={({ field: { ref, value, onChange, ...field } }) => (
              <TextField
                {...field}
                inputRef={ref}
                select
                label={t('connections.form.queues')}
                fullWidth
                value={value}
                onChange={(event) => onChange(event.target.value as unknown as number[])}
                helperText={
                  queues.isSuccess && queues.data.length === 0
                    ? t('connections.form.noQueues')
                    : t('connections.form.queuesHint')
                }
                slotProps={{
                  select: {
                    multiple: true,
                    renderValue: (selected) => (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {(selected as number[]).map((id) => {
                          const queue = queueById.get(id);
                          if (!queue) return null;
                          const color = cssColor(queue.color);
                          return (
                            <Chip
                              key={id}
                              size="small"
                              label={queue.name}
                              sx={{
                                bgcolor: color,
                                color: (theme) => theme.palette.getContrastText(color),
                              }}
                            />
                          );
                        })}
                      </Box>
                    ),
                  },
                }}
              >
                {queues.isPending && (
                  <MenuItem disabled>
                    <CircularProgress size={18} sx={{ mr: 1 }} />
                    {t('app.loading')}
                  </MenuItem>
                )}
                {(queues.data ?? []).map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    <Checkbox size="small" checked={value.includes(queue.id)} />
                    <QueueDot color={queue.color} />
                    <ListItemText primary={queue.name} />
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {textArea('greetingMessage', t('connections.form.greetingHint'))}
          {textArea('complationMessage')}
          {textArea('outOfHoursMessage')}
          {textArea('ratingMessage')}
          {connection && connection.token !== null && <TokenField connection={connection} />}
        </Stack>
      )}

      {shownTab === 'tickets' && (
        <Stack spacing={2.5}>
          <FieldRow>
            <Controller
              name="transferQueueId"
              control={control}
              render={({ field: { ref, ...field } }) => (
                <TextField
                  {...field}
                  inputRef={ref}
                  select
                  label={t('connections.form.transferQueueId')}
                  fullWidth
                  helperText={t('connections.form.transferQueueIdHint')}
                  slotProps={noneSelect}
                >
                  <MenuItem value="">{t('connections.form.none')}</MenuItem>
                  {(queues.data ?? []).map((queue) => (
                    <MenuItem key={queue.id} value={String(queue.id)}>
                      <QueueDot color={queue.color} />
                      {queue.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            {minutesField('timeToTransfer')}
          </FieldRow>
          <FieldRow>
            {minutesField('expiresTicket')}
            <TextField
              {...registerMui(register, 'expiresInactiveMessage')}
              label={t('connections.form.expiresInactiveMessage')}
              multiline
              minRows={2}
              maxRows={6}
              fullWidth
              {...fieldError('expiresInactiveMessage')}
            />
          </FieldRow>
          <FieldRow>
            {minutesField('timeUseBotQueues')}
            {minutesField('maxUseBotQueues')}
          </FieldRow>
          {canPickPrompt && (
            <Controller
              name="promptId"
              control={control}
              render={({ field: { ref, ...field } }) => (
                <PromptSelect
                  {...field}
                  inputRef={ref}
                  {...fieldError('promptId', t('connections.form.promptIdHint'))}
                />
              )}
            />
          )}
          {/* Without the picker integrationId keeps the value the connection has. */}
          {canPickIntegration && (
            <Controller
              name="integrationId"
              control={control}
              render={({ field: { ref, ...field } }) => (
                <IntegrationSelect
                  {...field}
                  inputRef={ref}
                  {...fieldError('integrationId', t('connections.form.integrationIdHint'))}
                />
              )}
            />
          )}
        </Stack>
      )}

      {shownTab === 'hours' && (
        <Stack spacing={2}>
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('connections.form.hoursHint')}
          </Typography>
          <SchedulesEditor control={control} />
        </Stack>
      )}

      {shownTab === 'cloud' && (
        <Stack spacing={2.5}>
          <Alert severity="info">{t('connections.form.cloudIntro')}</Alert>
          <TextField
            {...registerMui(register, 'cloudPhoneNumberId')}
            label={t('connections.form.cloudPhoneNumberId')}
            autoComplete="off"
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            {...fieldError('cloudPhoneNumberId')}
          />
          <TextField
            {...registerMui(register, 'cloudBusinessAccountId')}
            label={t('connections.form.cloudBusinessAccountId')}
            autoComplete="off"
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            {...fieldError(
              'cloudBusinessAccountId',
              t('connections.form.cloudBusinessAccountIdHint'),
            )}
          />
          <TextField
            {...registerMui(register, 'cloudAccessToken')}
            type="password"
            label={t('connections.form.cloudAccessToken')}
            autoComplete="new-password"
            fullWidth
            {...fieldError('cloudAccessToken', secretHint(connection?.hasCloudAccessToken))}
          />
          <TextField
            {...registerMui(register, 'cloudAppSecret')}
            type="password"
            label={t('connections.form.cloudAppSecret')}
            autoComplete="new-password"
            fullWidth
            {...fieldError('cloudAppSecret', secretHint(connection?.hasCloudAppSecret))}
          />
          <TextField
            {...registerMui(register, 'cloudVerifyToken')}
            label={t('connections.form.cloudVerifyToken')}
            autoComplete="off"
            fullWidth
            {...fieldError('cloudVerifyToken')}
          />
          <TextField
            {...registerMui(register, 'cloudApiBaseUrl')}
            type="url"
            label={t('connections.form.cloudApiBaseUrl')}
            placeholder="https://graph.facebook.com"
            autoComplete="off"
            fullWidth
            {...fieldError('cloudApiBaseUrl', t('connections.form.cloudApiBaseUrlHint'))}
          />
        </Stack>
      )}
    </DialogForm>
  );
};

const EditConnectionForm = ({
  id,
  initialTab,
  onClose,
}: {
  id: number;
  initialTab?: ConnectionTab;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const { data, isError } = useConnection(id);
  if (data) return <ConnectionForm connection={data} initialTab={initialTab} onClose={onClose} />;
  return (
    <DialogLoading
      title={t('connections.dialog.editTitle')}
      isError={isError}
      errorText={t('connections.dialog.loadFailed')}
    />
  );
};

// The connection modal (SPEC §2): adds a connection, or edits one loaded fresh from the API (on the
// tab asked for: the templates dialog sends to the Cloud API tab). The content stays while the dialog
// fades out; a new sessionKey gives each opening a fresh form.
export const ConnectionDialog = ({
  open,
  connectionId,
  sessionKey,
  initialTab,
  onClose,
}: {
  open: boolean;
  connectionId: number | null;
  sessionKey: number;
  initialTab?: ConnectionTab;
  onClose: () => void;
}) => (
  // Its tabs differ in length: the dialog keeps one height for all of them.
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md" stableHeight>
    {connectionId === null ? (
      <ConnectionForm connection={null} onClose={onClose} />
    ) : (
      <EditConnectionForm id={connectionId} initialTab={initialTab} onClose={onClose} />
    )}
  </DialogFrame>
);
