import { useEffect, useId, useState } from 'react';
import { Alert, Box, Button, Divider, MenuItem, Stack, Tab, Tabs, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { routingModes } from '@atendi/shared';
import { ColorField } from '../../components/color-field';
import { namedFields, useDialogSave } from '../../components/dialog-save';
import { IntegrationField, useCanPickIntegration } from '../../components/integration-select';
import {
  OutOfHoursPromptField,
  PromptField,
  useCanPickPrompt,
} from '../../components/prompt-select';
import { QueueSelect } from '../../components/queue-fields';
import { SchedulesEditor } from '../../components/schedules-editor';
import { normalizeColor } from '../../lib/colors';
import { FormText, MessageField } from '../../components/form-text';
import { FieldRow } from '../../components/field-row';
import { SelectField } from '../../components/select-field';
import { QueueOptionsEditor } from './queue-options-editor';
import {
  queueFormDefaults,
  queueFormSchema,
  toQueuePayload,
  type QueueFormValues,
} from './queue-form.schema';
import { applyQueueEventToCache } from '../../api/queries/queues';
import { createQueue, updateQueue, type Queue } from './queues.api';
import {
  CloseButton,
  DialogBody,
  DialogFrame,
  FormButtons,
  useDialogBusy,
} from '../../components/dialog-frame';

type Tab = 'data' | 'options';

// API field names that map onto form fields when a validation error names them.
const formFields = [
  'name',
  'color',
  'greetingMessage',
  'outOfHoursMessage',
  'completion',
  'ratingMessage',
  'token',
  'orderQueue',
  'promptId',
  'integrationId',
  'routing',
  'reassignMinutes',
  'slaFirstResponseMinutes',
  'slaNextResponseMinutes',
  'slaResolutionMinutes',
  'slaWarningMinutes',
  'outOfHoursQueueId',
  'outOfHoursPromptId',
] as const;

const QueueForm = ({
  formId,
  queue,
  others,
  onCreated,
  onSubmittingChange,
}: {
  formId: string;
  queue: Queue | null;
  others: Queue[];
  onCreated: (queue: Queue) => void;
  onSubmittingChange: (isSubmitting: boolean) => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canPickPrompt = useCanPickPrompt();
  const canPickIntegration = useCanPickIntegration();
  const form = useForm<QueueFormValues>({
    resolver: zodResolver(queueFormSchema),
    defaultValues: queueFormDefaults(queue, others),
  });
  const { control } = form;
  const usedBy = new Map(
    others.map((other) => [
      normalizeColor(other.color),
      t('queues.form.colorUsedBy', { name: other.name }),
    ]),
  );

  // ERR_PLAN_LIMIT_QUEUES and anything else: a toast with the translated text.
  const { onSubmit, isSubmitting } = useDialogSave(form, {
    save: async (values) => {
      const payload = toQueuePayload(values, {
        prompt: canPickPrompt,
        integration: canPickIntegration,
      });
      const saved = queue ? await updateQueue(queue.id, payload) : await createQueue(payload);
      applyQueueEventToCache(queryClient, { action: queue ? 'update' : 'create', queue: saved });
      return saved;
    },
    savedText: t('queues.saved'),
    // A new queue stays open so its chatbot options can be added right away.
    onSaved: queue ? undefined : onCreated,
    codes: { ERR_QUEUE_COLOR_ALREADY_EXISTS: 'color', ERR_QUEUE_NAME_ALREADY_EXISTS: 'name' },
    fields: namedFields(formFields),
  });
  // The submit button sits in the dialog's actions, outside this form.
  useEffect(() => onSubmittingChange(isSubmitting), [isSubmitting, onSubmittingChange]);

  return (
    <Stack component="form" id={formId} noValidate spacing={2.5} onSubmit={onSubmit}>
      <FieldRow>
        <FormText form={form} name="name" label={t('queues.form.name')} autoFocus />
        <FormText
          form={form}
          name="orderQueue"
          label={t('queues.form.order')}
          sx={{ width: { sm: 200 }, flexShrink: 0 }}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          hint={t('queues.form.orderHint')}
        />
      </FieldRow>
      <Controller
        name="color"
        control={control}
        render={({ field, fieldState }) => (
          <ColorField
            label={t('queues.form.color')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            usedBy={usedBy}
            error={fieldState.error?.message ? t(fieldState.error.message) : undefined}
          />
        )}
      />
      <MessageField
        form={form}
        name="greetingMessage"
        label={t('queues.form.greeting')}
        minRows={3}
      />
      <MessageField form={form} name="outOfHoursMessage" label={t('queues.form.outOfHours')} />
      <MessageField
        form={form}
        name="completion"
        label={t('queues.form.completion')}
        hint={t('queues.form.completionHint')}
      />
      <MessageField
        form={form}
        name="ratingMessage"
        label={t('queues.form.ratingMessage')}
        hint={t('queues.form.ratingMessageHint')}
      />
      <FormText
        form={form}
        name="token"
        label={t('queues.form.token')}
        hint={t('queues.form.tokenHint')}
      />
      <PromptField control={control} name="promptId" hint={t('queues.form.promptHint')} />
      <IntegrationField
        control={control}
        name="integrationId"
        hint={t('queues.form.integrationHint')}
      />
      <SelectField
        control={control}
        name="routing"
        label={t('queues.form.routing')}
        helperText={t('queues.form.routingHint')}
      >
        {routingModes.map((mode) => (
          <MenuItem key={mode} value={mode}>
            {t(`queues.form.routingModes.${mode}`)}
          </MenuItem>
        ))}
      </SelectField>
      <FormText
        form={form}
        name="reassignMinutes"
        label={t('queues.form.reassignMinutes')}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        hint={t('queues.form.reassignMinutesHint')}
      />
      <Divider />
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('queues.form.sla')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('queues.form.slaHint')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {(
          [
            'slaFirstResponseMinutes',
            'slaNextResponseMinutes',
            'slaResolutionMinutes',
            'slaWarningMinutes',
          ] as const
        ).map((name) => (
          <FormText
            key={name}
            form={form}
            name={name}
            label={t(`queues.form.${name}`)}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        ))}
      </Stack>
      <Divider />
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('queues.form.schedules')}
      </Typography>
      <SchedulesEditor control={control} hint={t('queues.form.schedulesHint')} />
      <QueueSelect
        control={control}
        name="outOfHoursQueueId"
        label={t('queues.form.outOfHoursQueue')}
        noneLabel={t('queues.form.outOfHoursNone')}
        helperText={t('queues.form.outOfHoursHint')}
      />
      <OutOfHoursPromptField
        control={control}
        name="outOfHoursPromptId"
        hint={t('queues.form.outOfHoursPromptHint')}
      />
    </Stack>
  );
};

const QueueDialogBody = ({
  initialQueue,
  queues,
}: {
  initialQueue: Queue | null;
  queues: Queue[];
}) => {
  const { t } = useTranslation();
  const formId = useId();
  const [queue, setQueue] = useState(initialQueue);
  const [tab, setTab] = useState<Tab>('data');
  const [isJustCreated, setJustCreated] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const others = queues.filter((other) => other.id !== queue?.id);

  const onCreated = (saved: Queue) => {
    setQueue(saved);
    setJustCreated(true);
  };

  useDialogBusy(isSaving);

  return (
    <DialogBody
      title={queue ? t('queues.dialog.editTitle') : t('queues.dialog.addTitle')}
      header={
        <Tabs value={tab} onChange={(_event, value: Tab) => setTab(value)} sx={{ px: 3 }}>
          <Tab value="data" label={t('queues.dialog.dataTab')} />
          <Tab value="options" label={t('queues.dialog.optionsTab')} disabled={!queue} />
        </Tabs>
      }
      // The data tab is a form; each chatbot option is saved on its own, so that tab only closes.
      footer={
        tab === 'data' ? (
          <FormButtons
            form={formId}
            submitLabel={queue ? t('common.save') : t('queues.dialog.add')}
            isSubmitting={isSaving}
            isSaved={initialQueue === null && queue !== null}
          />
        ) : (
          <CloseButton />
        )
      }
    >
      <Box hidden={tab !== 'data'}>
        {isJustCreated && (
          <Alert
            severity="success"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => setTab('options')}>
                {t('queues.dialog.goToOptions')}
              </Button>
            }
          >
            {t('queues.dialog.created')}
          </Alert>
        )}
        {!queue && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('queues.dialog.optionsAfterSave')}
          </Alert>
        )}
        <QueueForm
          key={queue?.id ?? 'new'}
          formId={formId}
          queue={queue}
          others={others}
          onCreated={onCreated}
          onSubmittingChange={setSaving}
        />
      </Box>
      {tab === 'options' && queue && <QueueOptionsEditor queueId={queue.id} />}
    </DialogBody>
  );
};

// The queue modal (SPEC §2): queue data and service hours, then the chatbot options of a saved queue.
// The content stays while the dialog fades out; a new sessionKey gives each opening a fresh form.
export const QueueDialog = ({
  open,
  queue,
  queues,
  sessionKey,
  onClose,
}: {
  open: boolean;
  queue: Queue | null;
  queues: Queue[];
  sessionKey: number;
  onClose: () => void;
}) => (
  // Its tabs differ in length: the dialog keeps one height for both.
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md" stableHeight>
    <QueueDialogBody initialQueue={queue} queues={queues} />
  </DialogFrame>
);
