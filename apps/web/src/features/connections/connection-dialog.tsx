import { useState } from 'react';
import { Alert, IconButton, MenuItem, Stack, Tab, Tabs, Tooltip } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { providers } from '@atendi/shared';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormText, MessageField, PasswordField } from '../../components/form-text';
import { CopyField } from '../../components/copy-field';
import { namedFields, useDialogSave } from '../../components/dialog-save';
import { IntegrationField } from '../../components/integration-select';
import { PromptField } from '../../components/prompt-select';
import { QueueSelect, QueuesField } from '../../components/queue-fields';
import { SchedulesEditor } from '../../components/schedules-editor';
import { SelectField } from '../../components/select-field';
import { useFieldError } from '../../lib/forms';
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
import {
  createConnection,
  regenerateToken,
  updateConnection,
  type Connection,
} from './connections.api';
import { SwitchField } from '../../components/switch-field';
import { FieldRow } from '../../components/field-row';
import { DialogForm, DialogFrame, DialogRecord } from '../../components/dialog-frame';

const formFields = Object.keys(tabOfField) as ConnectionFormField[];
const isFormField = (name: string): name is ConnectionFormField => name in tabOfField;

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

  return (
    <>
      <CopyField
        label={t('connections.form.token')}
        value={token}
        helperText={t('connections.form.tokenHint')}
        copyLabel={t('connections.form.copyToken')}
        copiedText={t('connections.form.tokenCopied')}
        actions={
          <Tooltip title={t('connections.form.regenerateToken')}>
            <IconButton
              aria-label={t('connections.form.regenerateToken')}
              onClick={() => setConfirming(true)}
            >
              <RefreshIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        }
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
}: {
  connection: Connection | null;
  initialTab?: ConnectionTab;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<ConnectionTab>(initialTab);
  const form = useForm<ConnectionFormValues>({
    resolver: zodResolver(connectionFormSchema(Boolean(connection?.hasCloudAccessToken))),
    defaultValues: connectionFormDefaults(connection),
  });
  const {
    control,
    formState: { errors },
  } = form;
  const provider = useWatch({ control, name: 'provider' });
  const isCloud = provider === 'cloud';
  const shownTab = tab === 'cloud' && !isCloud ? 'general' : tab;

  // A refused save shows the tab that holds the first field in error.
  const showFirstError = (fields: string[]) => {
    const first = fields.find(isFormField);
    if (first) setTab(tabOfField[first]);
  };

  // ERR_NO_OTHER_WHATSAPP, ERR_PLAN_LIMIT_CONNECTIONS and the rest: a toast with the text.
  const save = useDialogSave(form, {
    save: async (values) => {
      const payload = toConnectionPayload(values);
      const saved = connection
        ? await updateConnection(connection.id, payload)
        : await createConnection(payload);
      applyWhatsappEventToCache(queryClient, {
        action: connection ? 'update' : 'create',
        whatsapp: saved,
      });
    },
    savedText: t('connections.saved'),
    codes: {
      ERR_WAPP_GREETING_REQUIRED: ['greetingMessage', 'connections.validation.greetingRequired'],
      ERR_PROVIDER_UNAVAILABLE: 'provider',
    },
    fields: namedFields(formFields),
    onFieldErrors: showFirstError,
    onInvalid: (fieldErrors) => showFirstError(Object.keys(fieldErrors)),
  });

  const fieldError = useFieldError(errors);

  const textArea = (
    name: 'greetingMessage' | 'complationMessage' | 'outOfHoursMessage' | 'ratingMessage',
    hint?: string,
  ) => <MessageField form={form} name={name} label={t(`connections.form.${name}`)} hint={hint} />;

  const minutesField = (
    name: 'timeToTransfer' | 'expiresTicket' | 'timeUseBotQueues' | 'maxUseBotQueues',
  ) => (
    <FormText
      form={form}
      name={name}
      label={t(`connections.form.${name}`)}
      slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      hint={t(`connections.form.${name}Hint`)}
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
      {...save}
      submitLabel={connection ? t('common.save') : t('connections.dialog.add')}
    >
      {shownTab === 'general' && (
        <Stack spacing={2.5}>
          <FieldRow>
            <FormText form={form} name="name" label={t('connections.form.name')} autoFocus />
            <SelectField
              control={control}
              name="provider"
              label={t('connections.form.provider')}
              {...fieldError('provider')}
            >
              {providers.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`connections.providers.${value}`)}
                </MenuItem>
              ))}
            </SelectField>
          </FieldRow>
          <SwitchField control={control} name="isDefault" label={t('connections.form.isDefault')} />
          <QueuesField
            control={control}
            name="queueIds"
            label={t('connections.form.queues')}
            hint={t('connections.form.queuesHint')}
            noQueuesText={t('connections.form.noQueues')}
            saved={connection?.queues ?? []}
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
            <QueueSelect
              control={control}
              name="transferQueueId"
              label={t('connections.form.transferQueueId')}
              noneLabel={t('connections.form.none')}
              helperText={t('connections.form.transferQueueIdHint')}
            />
            {minutesField('timeToTransfer')}
          </FieldRow>
          <FieldRow>
            {minutesField('expiresTicket')}
            <FormText
              form={form}
              name="expiresInactiveMessage"
              label={t('connections.form.expiresInactiveMessage')}
              multiline
              minRows={2}
              maxRows={6}
            />
          </FieldRow>
          <FieldRow>
            {minutesField('timeUseBotQueues')}
            {minutesField('maxUseBotQueues')}
          </FieldRow>
          <PromptField
            control={control}
            name="promptId"
            hint={t('connections.form.promptIdHint')}
          />
          {/* Without the picker integrationId keeps the value the connection has. */}
          <IntegrationField
            control={control}
            name="integrationId"
            hint={t('connections.form.integrationIdHint')}
          />
        </Stack>
      )}

      {shownTab === 'hours' && (
        <SchedulesEditor control={control} hint={t('connections.form.hoursHint')} />
      )}

      {shownTab === 'cloud' && (
        <Stack spacing={2.5}>
          <Alert severity="info">{t('connections.form.cloudIntro')}</Alert>
          <FormText
            form={form}
            name="cloudPhoneNumberId"
            label={t('connections.form.cloudPhoneNumberId')}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <FormText
            form={form}
            name="cloudBusinessAccountId"
            label={t('connections.form.cloudBusinessAccountId')}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            hint={t('connections.form.cloudBusinessAccountIdHint')}
          />
          <PasswordField
            form={form}
            name="cloudAccessToken"
            label={t('connections.form.cloudAccessToken')}
            hint={secretHint(connection?.hasCloudAccessToken)}
          />
          <PasswordField
            form={form}
            name="cloudAppSecret"
            label={t('connections.form.cloudAppSecret')}
            hint={secretHint(connection?.hasCloudAppSecret)}
          />
          <FormText
            form={form}
            name="cloudVerifyToken"
            label={t('connections.form.cloudVerifyToken')}
          />
          <FormText
            form={form}
            name="cloudApiBaseUrl"
            type="url"
            label={t('connections.form.cloudApiBaseUrl')}
            placeholder="https://graph.facebook.com"
            hint={t('connections.form.cloudApiBaseUrlHint')}
          />
        </Stack>
      )}
    </DialogForm>
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
}) => {
  const { t } = useTranslation();
  return (
    // Its tabs differ in length: the dialog keeps one height for all of them.
    <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md" stableHeight>
      <DialogRecord
        id={connectionId}
        useRecord={useConnection}
        title={t('connections.dialog.editTitle')}
        loadFailed={t('connections.dialog.loadFailed')}
      >
        {(connection) => <ConnectionForm connection={connection} initialTab={initialTab} />}
      </DialogRecord>
    </DialogFrame>
  );
};
