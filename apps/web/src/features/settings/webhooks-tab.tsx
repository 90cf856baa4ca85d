import { useState, type Ref } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  FormHelperText,
  Link,
  Paper,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import PowerIcon from '@mui/icons-material/PowerSettingsNew';
import DeliveriesIcon from '@mui/icons-material/ReceiptLongOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import WarningIcon from '@mui/icons-material/WarningAmber';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type Path } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { webhookEventTypes, type WebhookEndpoint, type WebhookEventType } from '@atendi/shared';
import type { ApiError } from '../../api/http-client';
import { getApiUrl } from '../../api/runtime-config';
import { errorText } from '../../api/toasts';
import { CopyField } from '../../components/copy-field';
import { useDeleteConfirm } from '../../components/delete-confirm';
import {
  DialogBody,
  DialogForm,
  DialogFrame,
  DialogView,
  useDialogClose,
} from '../../components/dialog-frame';
import { useDialogSave, type FieldText } from '../../components/dialog-save';
import { FormText } from '../../components/form-text';
import { LoadingBox } from '../../components/loading-box';
import { actionsColumn, RowAction, type TableColumn } from '../../components/paged-table';
import { SwitchField } from '../../components/switch-field';
import { formatDateTime } from '../../lib/dates';
import { AdminToolbar } from './shared/admin-table';
import { useDeliveryOutcomeToast, WebhookDeliveriesDialog } from './webhook-deliveries-dialog';
import {
  endpointName,
  eventsOfGroup,
  useEventLabel,
  webhookEventGroups,
  type WebhookEventGroup,
} from './webhook-labels';
import { WebhookTable } from './webhook-table';
import {
  deleteWebhookEndpoint,
  useCreateWebhookEndpoint,
  useForgetWebhookEndpoint,
  useTestWebhookEndpoint,
  useToggleWebhookEndpoint,
  useUpdateWebhookEndpoint,
  useWebhookEndpoints,
  useWebhookSecret,
} from './webhooks.api';

// Issue 38: the company's outbound webhooks. Each endpoint hears the events chosen for it, signed
// with its secret (Standard Webhooks); its health, a test event, its delivery log and replays are
// here.

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

const formSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(2000, 'settings.webhooks.urlLength')
    .refine(isHttpUrl, 'settings.webhooks.urlInvalid'),
  description: z.string().trim().max(200, 'settings.webhooks.descriptionLength'),
  events: z.array(z.enum(webhookEventTypes)).min(1, 'settings.webhooks.eventsRequired'),
  enabled: z.boolean(),
});
type FormValues = z.infer<typeof formSchema>;

const knownEvents = (events: string[]) => webhookEventTypes.filter((type) => events.includes(type));

const initialValues = (endpoint: WebhookEndpoint | null): FormValues => ({
  url: endpoint?.url ?? '',
  description: endpoint?.description ?? '',
  events: endpoint ? knownEvents(endpoint.events) : [],
  enabled: endpoint?.enabled ?? true,
});

const formFields = ['url', 'description', 'events', 'enabled'] as const;

// A 400 naming fields (`url`, `events.0`…) says so under each; the URL with what it must be.
const fieldErrors = (error: ApiError): FieldText<FormValues>[] =>
  formFields
    .filter((field) =>
      Object.keys(error.fields ?? {}).some((key) => key === field || key.startsWith(`${field}.`)),
    )
    .map((field) => [
      field as Path<FormValues>,
      field === 'url' ? 'settings.webhooks.urlInvalid' : 'errors.ERR_VALIDATION',
    ]);

// The events by area, each checkable alone or the whole area at once; the technical name under each.
const EventPicker = ({
  value,
  onChange,
  error,
  inputRef,
}: {
  value: WebhookEventType[];
  onChange: (value: WebhookEventType[]) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}) => {
  const { t } = useTranslation();
  const eventLabel = useEventLabel();
  // Sent in the order of the list, whatever the order they were checked in.
  const set = (types: WebhookEventType[], checked: boolean) => {
    const next = new Set(value);
    types.forEach((type) => (checked ? next.add(type) : next.delete(type)));
    onChange(webhookEventTypes.filter((type) => next.has(type)));
  };
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {t('settings.webhooks.events')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 1.5,
          alignItems: 'start',
        }}
      >
        {webhookEventGroups.map((group, groupIndex) => {
          const events = eventsOfGroup(group);
          const chosen = events.filter((type) => value.includes(type));
          const groupName = t(`settings.webhooks.groups.${group}`);
          return (
            <Paper
              key={group}
              variant="outlined"
              role="group"
              aria-label={groupName}
              sx={{ px: 1.5, py: 1 }}
            >
              <Stack
                direction="row"
                sx={{ alignItems: 'center', justifyContent: 'space-between', minHeight: 38 }}
              >
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {groupName}
                </Typography>
                {events.length > 1 && (
                  <FormControlLabel
                    sx={{ mr: 0 }}
                    labelPlacement="start"
                    control={
                      <Checkbox
                        size="small"
                        checked={chosen.length === events.length}
                        indeterminate={chosen.length > 0 && chosen.length < events.length}
                        onChange={(event) => set(events, event.target.checked)}
                        slotProps={{
                          input: {
                            'aria-label': t('settings.webhooks.selectGroup', { group: groupName }),
                          },
                        }}
                      />
                    }
                    label={
                      <Typography variant="caption" color="text.secondary">
                        {t('settings.webhooks.selectAll')}
                      </Typography>
                    }
                  />
                )}
              </Stack>
              <Stack>
                {events.map((type, index) => (
                  <FormControlLabel
                    key={type}
                    sx={{ alignItems: 'flex-start', mr: 0 }}
                    control={
                      <Checkbox
                        size="small"
                        sx={{ pt: 0.5 }}
                        checked={value.includes(type)}
                        onChange={(event) => set([type], event.target.checked)}
                        slotProps={{
                          input: {
                            'aria-label': eventLabel(type),
                            // Where the form puts the focus when no event is chosen.
                            ref: groupIndex === 0 && index === 0 ? inputRef : undefined,
                          },
                        }}
                      />
                    }
                    label={
                      <Box sx={{ py: 0.5 }}>
                        <Typography variant="body2">{eventLabel(type)}</Typography>
                        <Typography
                          variant="caption"
                          component="code"
                          color="text.secondary"
                          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                        >
                          {type}
                        </Typography>
                      </Box>
                    }
                  />
                ))}
              </Stack>
            </Paper>
          );
        })}
      </Box>
      <FormHelperText error={Boolean(error)}>
        {error
          ? t(error)
          : t('settings.webhooks.eventsChosen', {
              count: value.length,
              total: webhookEventTypes.length,
            })}
      </FormHelperText>
    </Box>
  );
};

type Created = WebhookEndpoint & { secret: string };

const EndpointForm = ({
  endpoint,
  onCreated,
}: {
  endpoint: WebhookEndpoint | null;
  onCreated: (created: Created) => void;
}) => {
  const { t } = useTranslation();
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: initialValues(endpoint),
  });
  const save = useDialogSave<FormValues, FormValues, WebhookEndpoint | Created>(form, {
    save: (values) =>
      endpoint
        ? update.mutateAsync({
            id: endpoint.id,
            body: {
              url: values.url,
              description: values.description,
              events: values.events,
              // Only a change: saving an endpoint the platform turned off leaves it so, as it was.
              ...(values.enabled !== endpoint.enabled ? { enabled: values.enabled } : {}),
            },
          })
        : create.mutateAsync(values),
    savedText: t(endpoint ? 'settings.webhooks.saved' : 'settings.webhooks.created'),
    // A new endpoint's dialog stays open to show its secret.
    onSaved: endpoint ? undefined : (saved) => onCreated(saved as Created),
    codes: { ERR_OUTBOUND_URL_NOT_ALLOWED: 'url' },
    fields: fieldErrors,
  });
  const title = t(endpoint ? 'settings.webhooks.editTitle' : 'settings.webhooks.addTitle');
  const offByFailures = endpoint && !endpoint.enabled && endpoint.disabledReason === 'failures';
  return (
    <DialogForm
      title={title}
      aria-label={title}
      {...save}
      submitLabel={endpoint ? t('common.save') : t('settings.webhooks.create')}
    >
      <Stack spacing={2}>
        {offByFailures && (
          <Alert severity="warning">
            {t('settings.webhooks.offByFailures', {
              date: formatDateTime(endpoint.disabledAt),
            })}
          </Alert>
        )}
        <FormText
          form={form}
          name="url"
          type="url"
          label={t('settings.webhooks.url')}
          placeholder="https://"
          hint={t('settings.webhooks.urlHint')}
          autoFocus
        />
        <FormText
          form={form}
          name="description"
          label={t('settings.webhooks.description')}
          hint={t('settings.webhooks.descriptionHint')}
        />
        <Controller
          name="events"
          control={form.control}
          render={({ field, fieldState }) => (
            <EventPicker
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        <Box>
          <SwitchField
            control={form.control}
            name="enabled"
            label={t('settings.webhooks.enabled')}
          />
          <FormHelperText sx={{ mt: 0 }}>
            {offByFailures
              ? t('settings.webhooks.enableAgainHint')
              : t('settings.webhooks.enabledHint')}
          </FormHelperText>
        </Box>
      </Stack>
    </DialogForm>
  );
};

// The signing secret with its copy button, and what the receiver does with it.
const SecretField = ({ secret }: { secret: string }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <CopyField
        label={t('settings.webhooks.secret')}
        value={secret}
        helperText={t('settings.webhooks.secretHint')}
        copyLabel={t('settings.webhooks.copy')}
        copiedText={t('settings.webhooks.copied')}
      />
      <Alert severity="info">
        {t('settings.webhooks.secretNote')}{' '}
        <Box component="code" sx={{ fontFamily: 'monospace' }}>
          webhook-id, webhook-timestamp, webhook-signature
        </Box>
      </Alert>
    </Stack>
  );
};

// The endpoint just made, with its secret: the receiver needs it before the first event arrives.
const CreatedView = ({ created }: { created: Created }) => {
  const { t } = useTranslation();
  const close = useDialogClose();
  return (
    <DialogBody
      title={t('settings.webhooks.createdTitle')}
      footer={
        <Button variant="contained" onClick={close}>
          {t('settings.webhooks.done')}
        </Button>
      }
    >
      <Stack spacing={2}>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {t('settings.webhooks.createdText', { url: created.url })}
        </Typography>
        <SecretField secret={created.secret} />
      </Stack>
    </DialogBody>
  );
};

// Asked for when opened (the server records who saw it).
const SecretView = ({ endpoint }: { endpoint: WebhookEndpoint }) => {
  const { t } = useTranslation();
  const secret = useWebhookSecret(endpoint.id);
  return (
    <DialogView title={t('settings.webhooks.secretTitle', { name: endpointName(endpoint) })}>
      {secret.isPending && <LoadingBox />}
      {secret.isError && <Alert severity="error">{errorText(secret.error)}</Alert>}
      {secret.data && <SecretField secret={secret.data.secret} />}
    </DialogView>
  );
};

// How an endpoint is: on, turned off by an admin, or by the platform after failing for long; and
// whether its latest attempts failed.
const EndpointState = ({ endpoint }: { endpoint: WebhookEndpoint }) => {
  const { t } = useTranslation();
  const state = endpoint.enabled
    ? 'active'
    : endpoint.disabledReason === 'failures'
      ? 'failures'
      : 'disabled';
  const colors = { active: 'success', disabled: 'default', failures: 'error' } as const;
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Chip
        size="small"
        variant="outlined"
        color={colors[state]}
        label={t(`settings.webhooks.states.${state}`)}
      />
      {state === 'failures' && endpoint.disabledAt && (
        <Typography variant="caption" color="text.secondary">
          {t('settings.webhooks.disabledSince', { date: formatDateTime(endpoint.disabledAt) })}
        </Typography>
      )}
      {endpoint.consecutiveFailures > 0 && (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'warning.dark' }}>
          <WarningIcon sx={{ fontSize: 16 }} />
          <Typography variant="caption">
            {endpoint.failingSince
              ? t('settings.webhooks.failing', {
                  count: endpoint.consecutiveFailures,
                  date: formatDateTime(endpoint.failingSince),
                })
              : t('settings.webhooks.failingCount', { count: endpoint.consecutiveFailures })}
          </Typography>
        </Stack>
      )}
    </Stack>
  );
};

// How many events, and which areas: the whole area, or how many of it (the names in a tooltip).
const EventsSummary = ({ events }: { events: string[] }) => {
  const { t } = useTranslation();
  const eventLabel = useEventLabel();
  const groups = webhookEventGroups
    .map((group: WebhookEventGroup) => {
      const all = eventsOfGroup(group);
      return { group, all, chosen: all.filter((type) => events.includes(type)) };
    })
    .filter(({ chosen }) => chosen.length > 0);
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2">
        {events.length === webhookEventTypes.length
          ? t('settings.webhooks.allEvents')
          : t('settings.webhooks.eventCount', { count: events.length })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
        {groups.map(({ group, all, chosen }) => {
          const name = t(`settings.webhooks.groups.${group}`);
          return (
            <Tooltip key={group} title={chosen.map(eventLabel).join(', ')}>
              <Chip
                size="small"
                variant="outlined"
                label={
                  chosen.length === all.length ? name : `${name} ${chosen.length}/${all.length}`
                }
              />
            </Tooltip>
          );
        })}
      </Box>
    </Stack>
  );
};

type DialogState = { open: boolean; endpoint: WebhookEndpoint | null; session: number };
const closed: DialogState = { open: false, endpoint: null, session: 0 };

// One state per dialog; a new session gives each opening a fresh body, the endpoint stays while it
// fades out.
const useDialogState = () => {
  const [state, setState] = useState<DialogState>(closed);
  return {
    state,
    open: (endpoint: WebhookEndpoint | null) =>
      setState((current) => ({ open: true, endpoint, session: current.session + 1 })),
    close: () => setState((current) => ({ ...current, open: false })),
  };
};

export const WebhooksTab = () => {
  const { t } = useTranslation();
  const endpoints = useWebhookEndpoints();
  const test = useTestWebhookEndpoint();
  const toggle = useToggleWebhookEndpoint();
  const forget = useForgetWebhookEndpoint();
  const outcome = useDeliveryOutcomeToast();
  const formDialog = useDialogState();
  const secretDialog = useDialogState();
  const deliveriesDialog = useDialogState();
  // Kept while the dialog fades out; a new opening starts with the form again.
  const [created, setCreated] = useState<Created | null>(null);

  const openForm = (endpoint: WebhookEndpoint | null) => {
    setCreated(null);
    formDialog.open(endpoint);
  };

  const confirmDelete = useDeleteConfirm({
    remove: (endpoint: WebhookEndpoint) => deleteWebhookEndpoint(endpoint.id),
    onDeleted: (endpoint) => forget(endpoint.id),
    deletedText: t('settings.webhooks.deleted'),
    title: (endpoint) => t('settings.webhooks.deleteTitle', { name: endpointName(endpoint) }),
    message: () => t('settings.webhooks.deleteText'),
    confirmLabel: t('settings.delete'),
  });

  const sendTest = (endpoint: WebhookEndpoint) =>
    test.mutate(endpoint.id, { onSuccess: (delivery) => outcome(delivery, 'test') });

  const switchOnOff = (endpoint: WebhookEndpoint) =>
    toggle.mutate(
      { id: endpoint.id, enabled: !endpoint.enabled },
      {
        onSuccess: (saved) =>
          toast.success(
            t(saved.enabled ? 'settings.webhooks.turnedOn' : 'settings.webhooks.turnedOff'),
          ),
      },
    );

  const rows = endpoints.data?.endpoints ?? [];
  const columns: TableColumn<WebhookEndpoint>[] = [
    {
      header: t('settings.webhooks.url'),
      cell: (endpoint) => (
        <Box sx={{ minWidth: 0, maxWidth: 360 }}>
          <Box
            component="code"
            sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}
          >
            {endpoint.url}
          </Box>
          {endpoint.description && (
            <Typography variant="body2" color="text.secondary">
              {endpoint.description}
            </Typography>
          )}
        </Box>
      ),
    },
    {
      header: t('settings.webhooks.events'),
      cell: (endpoint) => <EventsSummary events={endpoint.events} />,
    },
    {
      header: t('settings.webhooks.state'),
      cell: (endpoint) => <EndpointState endpoint={endpoint} />,
    },
    {
      header: t('settings.webhooks.lastDelivery'),
      sx: { whiteSpace: { sm: 'nowrap' } },
      cell: (endpoint) =>
        endpoint.lastDeliveryAt
          ? formatDateTime(endpoint.lastDeliveryAt)
          : t('settings.webhooks.never'),
    },
    actionsColumn(
      t('settings.actions'),
      (endpoint) => {
        const name = endpointName(endpoint);
        const action = (label: string) => ({ title: label, label: `${label} ${name}` });
        const onOff = endpoint.enabled
          ? t('settings.webhooks.turnOff')
          : t('settings.webhooks.turnOn');
        return (
          <>
            <RowAction
              {...action(t('settings.edit'))}
              icon={<EditIcon fontSize="small" />}
              onClick={() => openForm(endpoint)}
            />
            <RowAction
              {...action(t('settings.webhooks.viewSecret'))}
              icon={<KeyIcon fontSize="small" />}
              onClick={() => secretDialog.open(endpoint)}
            />
            <RowAction
              {...action(t('settings.webhooks.sendTest'))}
              icon={<SendIcon fontSize="small" />}
              disabled={test.isPending && test.variables === endpoint.id}
              onClick={() => sendTest(endpoint)}
            />
            <RowAction
              {...action(t('settings.webhooks.deliveries'))}
              icon={<DeliveriesIcon fontSize="small" />}
              onClick={() => deliveriesDialog.open(endpoint)}
            />
            <RowAction
              {...action(onOff)}
              icon={<PowerIcon fontSize="small" color={endpoint.enabled ? 'inherit' : 'success'} />}
              disabled={toggle.isPending && toggle.variables.id === endpoint.id}
              onClick={() => switchOnOff(endpoint)}
            />
            <RowAction
              {...action(t('settings.delete'))}
              icon={<DeleteIcon fontSize="small" />}
              onClick={() => confirmDelete.ask(endpoint)}
            />
          </>
        );
      },
      216,
    ),
  ];

  return (
    <Stack spacing={2}>
      <Stack spacing={1}>
        <Typography variant="body2" color="text.secondary">
          {t('settings.webhooks.intro')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('settings.webhooks.signing')}
        </Typography>
        <Typography variant="body2">
          <Link href={`${getApiUrl()}/docs`} target="_blank" rel="noopener noreferrer">
            {t('settings.webhooks.docs')}
          </Link>
        </Typography>
      </Stack>
      {rows.length > 0 && (
        <AdminToolbar addLabel={t('settings.webhooks.add')} onAdd={() => openForm(null)} />
      )}
      {endpoints.isError && <Alert severity="error">{errorText(endpoints.error)}</Alert>}
      {endpoints.isPending && <LoadingBox />}
      {endpoints.isSuccess && rows.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
          <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
            <Typography sx={{ fontWeight: 600 }}>{t('settings.webhooks.empty')}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 520 }}>
              {t('settings.webhooks.emptyHint')}
            </Typography>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
              {t('settings.webhooks.add')}
            </Button>
          </Stack>
        </Paper>
      )}
      {rows.length > 0 && (
        <WebhookTable label={t('settings.tabs.webhooks')} columns={columns} rows={rows} />
      )}
      <DialogFrame
        open={formDialog.state.open}
        onClose={formDialog.close}
        sessionKey={formDialog.state.session}
        maxWidth="md"
        // The secret is shown right after creating: a stray click outside must not lose the view.
        keepOnBackdropClick={created !== null}
      >
        {created ? (
          <CreatedView created={created} />
        ) : (
          <EndpointForm endpoint={formDialog.state.endpoint} onCreated={setCreated} />
        )}
      </DialogFrame>
      <DialogFrame
        open={secretDialog.state.open}
        onClose={secretDialog.close}
        sessionKey={secretDialog.state.session}
      >
        {secretDialog.state.endpoint && <SecretView endpoint={secretDialog.state.endpoint} />}
      </DialogFrame>
      <WebhookDeliveriesDialog
        open={deliveriesDialog.state.open}
        endpoint={deliveriesDialog.state.endpoint}
        sessionKey={deliveriesDialog.state.session}
        onClose={deliveriesDialog.close}
      />
      {confirmDelete.dialog}
    </Stack>
  );
};
