import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  Link,
  MenuItem,
  Stack,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type FieldError, type Resolver } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/date-field';
import { z } from 'zod';
import {
  CAMPAIGN_BUILTIN_VARIABLES,
  campaignEditable,
  campaignMessageKeys,
  campaignMessagesEditable,
  campaignSchema,
  confirmationFields,
  messageFields,
  messageMediaExtensions,
  messageSlots,
  NO_TAG_LIST,
  templateParamIssues,
  type CampaignInput,
  type CampaignView,
  type MessageSlot,
} from '@atendi/shared';
import { useConnections } from '../../api/queries/connections';
import { useTagOptions } from '../../api/queries/tags';
import { useTemplates } from '../../api/queries/templates';
import type { ApiError } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { hasMediaHeader } from '../../components/message-template';
import { useDialogSave, type FieldText } from '../../components/dialog-save';
import { registerMui } from '../../lib/forms';
import {
  applyCampaignEventToCache,
  createCampaign,
  deleteCampaignMedia,
  updateCampaign,
  uploadCampaignMedia,
  useCampaignSettings,
  useContactListOptions,
  useFileListOptions,
} from './campaigns.api';
import {
  CampaignTemplateFields,
  emptyTemplateParams,
  paramPath,
  type TemplateParamPath,
} from './campaign-template';
import { SwitchField } from '../../components/switch-field';
import { FieldRow } from '../../components/field-row';
import { CloseButton, DialogForm, DialogFrame } from '../../components/dialog-frame';

type MessageField = (typeof campaignMessageKeys)[number];

// What the form holds: selects as text ('' for none, NO_TAG_LIST for no tag), the schedule as a
// datetime-local value ('' for none); a Cloud API connection's template and one value per parameter.
export type CampaignFormValues = {
  name: string;
  contactListId: string;
  tagListId: string;
  whatsappId: string;
  fileListId: string;
  scheduledAt: string;
  confirmation: boolean;
  templateId: string;
  templateParams: { header: string[]; body: string[] };
} & Record<MessageField, string>;

type FormField = Exclude<keyof CampaignFormValues, 'templateParams'>;
// Where the variable chips write: a message, or a value of the template.
type ChipTarget = MessageField | TemplateParamPath;

const formFields: readonly FormField[] = [
  'name',
  'contactListId',
  'tagListId',
  'whatsappId',
  'fileListId',
  'scheduledAt',
  'confirmation',
  'templateId',
  ...campaignMessageKeys,
];
const isFormField = (name: string): name is FormField =>
  (formFields as readonly string[]).includes(name);
const isTemplateParam = (name: string): name is TemplateParamPath =>
  /^templateParams\.(header|body)\.\d+$/.test(name);

const pad = (value: number) => String(value).padStart(2, '0');

// What a datetime-local input holds for an instant: the local date and time, to the minute.
const toLocalInput = (value: string | Date | null) => {
  if (value === null) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

const idText = (id: number | null) => (id === null ? '' : String(id));

const emptyMessages = Object.fromEntries(campaignMessageKeys.map((key) => [key, ''])) as Record<
  MessageField,
  string
>;

const formValuesOf = (campaign: CampaignView | null): CampaignFormValues => ({
  name: campaign?.name ?? '',
  contactListId: idText(campaign?.contactListId ?? null),
  tagListId: campaign?.tagListId ? String(campaign.tagListId) : NO_TAG_LIST,
  whatsappId: idText(campaign?.whatsappId ?? null),
  fileListId: idText(campaign?.fileListId ?? null),
  scheduledAt: toLocalInput(campaign?.scheduledAt ?? null),
  confirmation: campaign?.confirmation ?? false,
  templateId: idText(campaign?.templateId ?? null),
  templateParams: {
    header: [...(campaign?.templateParams.header ?? [])],
    body: [...(campaign?.templateParams.body ?? [])],
  },
  ...(campaign
    ? (Object.fromEntries(campaignMessageKeys.map((key) => [key, campaign[key]])) as Record<
        MessageField,
        string
      >)
    : emptyMessages),
});

// The local time typed, as an instant with its offset (the API's scheduledAt); what cannot be read
// as a date is left for the schema to refuse.
const toInstant = (value: string) => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
};
const toId = (value: string | undefined) => (value ? Number(value) : null);

// The body the API takes (before campaignSchema's defaults and transforms).
const toCampaignBody = (values: CampaignFormValues) => ({
  ...values,
  name: values.name ?? '',
  confirmation: Boolean(values.confirmation),
  scheduledAt: toInstant(values.scheduledAt ?? ''),
  whatsappId: toId(values.whatsappId),
  contactListId: toId(values.contactListId),
  tagListId: values.tagListId && values.tagListId !== NO_TAG_LIST ? Number(values.tagListId) : null,
  fileListId: toId(values.fileListId),
  templateId: toId(values.templateId),
  templateParams: {
    header: values.templateParams?.header ?? [],
    body: values.templateParams?.body ?? [],
  },
});

// SPEC §5 Campaign, checked by the shared schema on the body the form would send.
const campaignFormSchema = z.preprocess(
  (values: CampaignFormValues) => toCampaignBody(values),
  campaignSchema,
);
const campaignResolver: Resolver<CampaignFormValues, unknown, CampaignInput> =
  zodResolver(campaignFormSchema);

const isMessageField = (field: string): field is MessageField =>
  (campaignMessageKeys as readonly string[]).includes(field);
const slotOf = (field: MessageField): MessageSlot => {
  const index = (messageFields as readonly string[]).indexOf(field);
  return (
    index >= 0 ? index + 1 : (confirmationFields as readonly string[]).indexOf(field) + 1
  ) as MessageSlot;
};

// The shared schema's messages are for API callers: the form names each problem in the reader's
// language from the field and the kind of problem. One the API found carries its own key.
const fieldErrorKey = (field: FormField, error: FieldError, values: CampaignFormValues) => {
  if (error.type === 'server' && error.message) return error.message;
  const isRequired = error.type === 'custom';
  if (field === 'name')
    return (values.name ?? '').trim() ? 'validation.nameLength' : 'validation.required';
  if (isMessageField(field))
    return isRequired
      ? field.startsWith('confirmation')
        ? 'campaigns.validation.confirmationRequired'
        : 'campaigns.validation.messageRequired'
      : 'campaigns.validation.messageTooLong';
  if (field === 'whatsappId') return 'campaigns.validation.connectionRequired';
  if (field === 'contactListId') return 'campaigns.validation.audienceRequired';
  if (field === 'scheduledAt') return 'campaigns.validation.scheduledAt';
  if (field === 'templateId') return 'campaigns.validation.templateNotSendable';
  return 'campaigns.validation.invalidChoice';
};

// A field the API refused (ERR_VALIDATION fields: { path: [messages] }), as the form's key.
const serverErrorKey = (field: FormField, messages: string[]) => {
  const isRequired = messages.some((message) => /obligatori|required/i.test(message));
  if (field === 'name') return isRequired ? 'validation.required' : 'validation.nameLength';
  if (isMessageField(field))
    return !isRequired
      ? 'campaigns.validation.messageTooLong'
      : field.startsWith('confirmation')
        ? 'campaigns.validation.confirmationRequired'
        : 'campaigns.validation.messageRequired';
  if (field === 'whatsappId') return 'campaigns.validation.connectionRequired';
  if (field === 'contactListId' && isRequired) return 'campaigns.validation.audienceRequired';
  if (field === 'scheduledAt') return 'campaigns.validation.scheduledAt';
  // A scheduled campaign on a Cloud API connection needs one; another connection's template, or one
  // not approved, cannot be sent.
  if (field === 'templateId')
    return messages.some((message) => /start conversations|obligatori|required/i.test(message))
      ? 'campaigns.validation.templateRequired'
      : 'campaigns.validation.templateNotSendable';
  return 'campaigns.validation.invalidChoice';
};

// A template value the API (or the form) found missing, or one too long.
const paramErrorKey = (messages: string[]) =>
  messages.some((message) => /obligatori|required/i.test(message))
    ? 'campaigns.validation.templateParamRequired'
    : 'campaigns.validation.templateParamTooLong';

// How much of a campaign can change (SPEC §2 Campaigns): all of it while inactive or scheduled more
// than an hour ahead, only the messages once cancelled, nothing otherwise.
type EditMode = 'all' | 'messages' | 'none';
const editModeOf = (campaign: CampaignView | null): EditMode => {
  if (!campaign || campaignEditable(campaign)) return 'all';
  return campaignMessagesEditable(campaign) ? 'messages' : 'none';
};

const readOnlyReasonKey = (campaign: CampaignView, mode: EditMode) => {
  if (mode === 'messages') return 'campaigns.dialog.onlyMessages';
  if (campaign.status === 'PROGRAMADA') return 'campaigns.dialog.startsSoon';
  if (campaign.status === 'EM_ANDAMENTO') return 'campaigns.dialog.running';
  return 'campaigns.dialog.finished';
};

type Option = { id: number; name: string };

// The picker's entries, with the campaign's own choice kept when the list no longer has it (or has
// not loaded yet).
const withCurrent = (options: Option[] | undefined, current: Option | null) => {
  const list = options ?? [];
  return current && !list.some((option) => option.id === current.id) ? [current, ...list] : list;
};

// The campaign's attachment (SPEC §2 Campaigns): sent with its message; chosen once it is saved.
const MediaAttachment = ({
  campaign,
  canChange,
  onChanged,
}: {
  campaign: CampaignView | null;
  canChange: boolean;
  onChanged: (campaign: CampaignView) => void;
}) => {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [isBusy, setBusy] = useState(false);

  if (!campaign)
    return (
      <Typography
        variant="body2"
        sx={{
          color: 'text.secondary',
        }}
      >
        {t('campaigns.dialog.mediaAfterSave')}
      </Typography>
    );

  const run = async (action: () => Promise<CampaignView>, doneText: string) => {
    setBusy(true);
    try {
      onChanged(await action());
      toast.success(doneText);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file can be chosen again after removing it.
    event.target.value = '';
    if (file)
      void run(() => uploadCampaignMedia(campaign.id, file), t('campaigns.dialog.mediaAttached'));
  };

  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        alignItems: 'center',
        minHeight: 40,
      }}
    >
      {campaign.mediaName ? (
        <>
          <AttachFileIcon fontSize="small" color="action" />
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {campaign.mediaUrl ? (
              <Link href={campaign.mediaUrl} target="_blank" rel="noopener">
                {campaign.mediaName}
              </Link>
            ) : (
              campaign.mediaName
            )}
          </Typography>
          {canChange && (
            <Tooltip title={t('campaigns.dialog.removeMedia')}>
              <span>
                <IconButton
                  size="small"
                  aria-label={t('campaigns.dialog.removeMediaNamed', { name: campaign.mediaName })}
                  disabled={isBusy}
                  onClick={() =>
                    void run(
                      () => deleteCampaignMedia(campaign.id),
                      t('campaigns.dialog.mediaRemoved'),
                    )
                  }
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
        </>
      ) : canChange ? (
        <>
          <input
            ref={inputRef}
            type="file"
            hidden
            accept={messageMediaExtensions.join(',')}
            data-testid="campaign-media-input"
            onChange={onFileChosen}
          />
          <Button
            variant="outlined"
            startIcon={isBusy ? <CircularProgress size={16} /> : <AttachFileIcon />}
            disabled={isBusy}
            onClick={() => inputRef.current?.click()}
          >
            {t('campaigns.dialog.attachMedia')}
          </Button>
        </>
      ) : (
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('campaigns.dialog.noMedia')}
        </Typography>
      )}
      {isBusy && campaign.mediaName && <CircularProgress size={16} />}
    </Stack>
  );
};

const CampaignForm = ({ initial }: { initial: CampaignView | null }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Set once saved: a new campaign stays open, now editable, so a file can be attached to it.
  const [campaign, setCampaign] = useState(initial);
  const [slot, setSlot] = useState<MessageSlot>(1);
  // Where the variable chips write: the message or template value last focused.
  const [activeField, setActiveField] = useState<ChipTarget>('message1');
  const contactLists = useContactListOptions();
  const tags = useTagOptions();
  const connections = useConnections();
  const fileLists = useFileListOptions();
  const settings = useCampaignSettings();

  const form = useForm<CampaignFormValues, unknown, CampaignInput>({
    resolver: campaignResolver,
    defaultValues: formValuesOf(initial),
  });
  const {
    register,
    control,
    setError,
    setValue,
    getValues,
    formState: { errors, isSubmitted },
  } = form;
  const confirmation = useWatch({ control, name: 'confirmation' });
  const values = useWatch({ control }) as CampaignFormValues;

  const mode = editModeOf(campaign);
  const canEditAll = mode === 'all';
  const canEditMessages = mode !== 'none';

  // A Cloud API connection opens each conversation with an approved template (Meta's 24-hour rule).
  // Until the connections load, a saved campaign's template tells.
  const chosenConnection = connections.data?.find(
    (connection) => String(connection.id) === values.whatsappId,
  );
  const isCloud = chosenConnection
    ? chosenConnection.provider === 'cloud'
    : !connections.data &&
      values.whatsappId !== '' &&
      values.whatsappId === idText(campaign?.whatsappId ?? null) &&
      campaign?.templateId !== null &&
      campaign?.templateId !== undefined;
  const templates = useTemplates(isCloud ? Number(values.whatsappId) : null);
  const template = isCloud
    ? templates.data?.templates.find((row) => String(row.id) === values.templateId)
    : undefined;
  const hasTemplate = isCloud && values.templateId !== '';
  // Without confirmation the template is the message; with it, the confirmation request (the message
  // follows the answer, and no confirmation message is needed).
  const showsMessages = !hasTemplate || confirmation;
  const showsConfirmationMessages = confirmation && !hasTemplate;
  const templateParamPaths: TemplateParamPath[] = template
    ? [
        ...template.headerParams.map((_, index) => paramPath('header', index)),
        ...template.bodyParams.map((_, index) => paramPath('body', index)),
      ]
    : [];
  const chipTargets: ChipTarget[] = [
    ...(showsMessages ? [messageFields[slot - 1]!] : []),
    ...(showsConfirmationMessages ? [confirmationFields[slot - 1]!] : []),
    ...templateParamPaths,
  ];
  const chipTarget = chipTargets.includes(activeField) ? activeField : chipTargets[0];
  const canEditChipTarget =
    chipTarget !== undefined && (isTemplateParam(chipTarget) ? canEditAll : canEditMessages);

  // Another connection has other templates; another template other parameters.
  const clearTemplate = () => {
    setValue('templateId', '');
    setValue('templateParams', emptyTemplateParams(undefined));
  };
  const pickTemplate = (templateId: string) => {
    const picked = templates.data?.templates.find((row) => String(row.id) === templateId);
    setValue('templateParams', emptyTemplateParams(picked));
    const first = picked?.headerParams.length
      ? paramPath('header', 0)
      : picked?.bodyParams.length
        ? paramPath('body', 0)
        : null;
    if (first) setActiveField(first);
  };

  const changeSlot = (next: MessageSlot) => {
    setSlot(next);
    setActiveField(messageFields[next - 1]!);
  };

  // A refused save shows the message tab holding the first message in error.
  const showFirstError = (fields: string[]) => {
    const first = fields.find(isMessageField);
    if (first && !fields.some((field) => isMessageField(field) && slotOf(field) === slot))
      changeSlot(slotOf(first));
  };

  const saved = (record: CampaignView, action: 'create' | 'update') => {
    setCampaign(record);
    applyCampaignEventToCache(queryClient, { action, record });
  };

  // What the API would refuse about the template of a campaign to be scheduled, said before sending:
  // a Cloud API connection needs one, approved, with every value written.
  const templateProblems = (
    input: Pick<CampaignInput, 'scheduledAt' | 'templateId' | 'templateParams'>,
  ) => {
    if (mode !== 'all' || !isCloud || input.scheduledAt === null) return [];
    if (input.templateId === null)
      return [{ path: 'templateId', key: 'campaigns.validation.templateRequired' }];
    if (!template) return [];
    if (template.status !== 'APPROVED')
      return [{ path: 'templateId', key: 'campaigns.validation.templateNotSendable' }];
    return templateParamIssues(template, input.templateParams).map((issue) => ({
      path: issue.path,
      key: 'campaigns.validation.templateParamRequired',
    }));
  };

  const showTemplateProblems = (
    input: Pick<CampaignInput, 'scheduledAt' | 'templateId' | 'templateParams'>,
  ) => {
    const problems = templateProblems(input);
    problems.forEach(({ path, key }) =>
      setError(path as FormField | TemplateParamPath, { type: 'server', message: key }),
    );
    return problems.length > 0;
  };

  // The fields a 400 names, each with its text.
  const refusedFields = (error: ApiError): FieldText<CampaignFormValues>[] =>
    error.code === 'ERR_VALIDATION' && error.fields
      ? Object.entries(error.fields).flatMap(
          ([field, messages]): FieldText<CampaignFormValues>[] => {
            if (isTemplateParam(field))
              return templateParamPaths.includes(field) ? [[field, paramErrorKey(messages)]] : [];
            return isFormField(field) ? [[field, serverErrorKey(field, messages)]] : [];
          },
        )
      : [];

  const save = useDialogSave(form, {
    save: async (input) => {
      // A cancelled campaign takes only its messages.
      const body =
        mode === 'messages'
          ? Object.fromEntries(campaignMessageKeys.map((key) => [key, input[key]]))
          : input;
      const record = campaign
        ? await updateCampaign(campaign.id, body)
        : await createCampaign(input);
      saved(record, campaign ? 'update' : 'create');
    },
    savedText: t('campaigns.saved'),
    // A new campaign stays open, now edited: a file can only be attached to a saved one.
    onSaved: campaign ? undefined : () => undefined,
    isBlocked: showTemplateProblems,
    fields: refusedFields,
    onFieldErrors: showFirstError,
    onInvalid: (fieldErrors) => {
      showTemplateProblems(toCampaignBody(getValues()));
      showFirstError(Object.keys(fieldErrors));
    },
  });

  const errorOf = (field: FormField, hint?: string) => {
    const error = errors[field];
    return {
      error: Boolean(error),
      helperText: error ? t(fieldErrorKey(field, error, values)) : hint,
    };
  };

  const variables = [
    ...CAMPAIGN_BUILTIN_VARIABLES,
    ...(settings.data?.variables ?? [])
      .map((variable) => variable.key)
      .filter((key) => !(CAMPAIGN_BUILTIN_VARIABLES as readonly string[]).includes(key)),
  ];
  const insertVariable = (key: string) => {
    if (!chipTarget) return;
    setValue(chipTarget, `${getValues(chipTarget) ?? ''}{{${key}}}`, {
      shouldDirty: true,
      shouldValidate: isSubmitted,
    });
  };

  // A template value's error, translated: the form's own (too long) or one the API gave.
  const templateErrorOf = (path: 'templateId' | TemplateParamPath) => {
    if (path === 'templateId') {
      const error = errors.templateId;
      return error ? t(fieldErrorKey('templateId', error, values)) : undefined;
    }
    const [, part, index] = path.split('.') as [string, 'header' | 'body', string];
    const error = errors.templateParams?.[part]?.[Number(index)];
    if (!error) return undefined;
    return t(
      error.type === 'server' && error.message
        ? error.message
        : 'campaigns.validation.templateParamTooLong',
    );
  };

  const picker = (
    name: 'contactListId' | 'tagListId' | 'whatsappId' | 'fileListId',
    label: string,
    noneValue: string,
    options: Option[],
    hint?: string,
    onPicked?: () => void,
  ) => (
    <Controller
      key={name}
      name={name}
      control={control}
      render={({ field: { ref, onChange, ...field } }) => (
        <TextField
          {...field}
          inputRef={ref}
          onChange={(event) => {
            if (event.target.value !== field.value) onPicked?.();
            onChange(event);
          }}
          select
          label={label}
          fullWidth
          disabled={!canEditAll}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          {...errorOf(name, hint)}
        >
          <MenuItem value={noneValue}>{t('campaigns.dialog.none')}</MenuItem>
          {options.map((option) => (
            <MenuItem key={option.id} value={String(option.id)}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  const messageField = (field: MessageField, label: string) => (
    <Controller
      key={field}
      name={field}
      control={control}
      render={({ field: { ref, onBlur, ...rest } }) => (
        <TextField
          {...rest}
          inputRef={ref}
          onBlur={onBlur}
          onFocus={() => setActiveField(field)}
          label={label}
          multiline
          minRows={4}
          maxRows={12}
          fullWidth
          disabled={!canEditMessages}
          {...errorOf(field)}
        />
      )}
    />
  );

  const row = (...children: ReactNode[]) => <FieldRow>{children}</FieldRow>;

  const title = !campaign
    ? t('campaigns.dialog.addTitle')
    : canEditMessages
      ? t('campaigns.dialog.editTitle')
      : t('campaigns.dialog.viewTitle');

  return (
    <DialogForm
      title={title}
      {...save}
      submitLabel={campaign ? t('common.save') : t('campaigns.dialog.add')}
      isSaved={!initial && campaign !== null}
      // A campaign past editing is only shown.
      footer={canEditMessages ? undefined : <CloseButton />}
    >
      <Stack spacing={2.5}>
        {campaign && mode !== 'all' && (
          <Alert severity="info">{t(readOnlyReasonKey(campaign, mode))}</Alert>
        )}
        <TextField
          {...registerMui(register, 'name')}
          label={t('campaigns.dialog.name')}
          autoComplete="off"
          autoFocus={canEditAll}
          fullWidth
          disabled={!canEditAll}
          {...errorOf('name')}
        />
        {row(
          picker(
            'contactListId',
            t('campaigns.dialog.contactList'),
            '',
            withCurrent(contactLists.data, campaign?.contactList ?? null),
          ),
          picker(
            'tagListId',
            t('campaigns.dialog.tag'),
            NO_TAG_LIST,
            withCurrent(tags.data, campaign?.tag ?? null),
            t('campaigns.dialog.tagHint'),
          ),
        )}
        {row(
          picker(
            'whatsappId',
            t('campaigns.dialog.connection'),
            '',
            withCurrent(connections.data, campaign?.whatsapp ?? null),
            undefined,
            clearTemplate,
          ),
          picker(
            'fileListId',
            t('campaigns.dialog.fileList'),
            '',
            withCurrent(fileLists.data, campaign?.fileList ?? null),
            // A template without confirmation is all a recipient gets before answering.
            hasTemplate && !confirmation
              ? t('campaigns.template.fileListNotSent')
              : t('campaigns.dialog.fileListHint'),
          ),
        )}
        {row(
          <Controller
            key="scheduledAt"
            name="scheduledAt"
            control={control}
            render={({ field }) => (
              <DateField
                kind="datetime"
                label={t('campaigns.dialog.scheduledAt')}
                value={field.value ?? ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                name={field.name}
                fullWidth
                disabled={!canEditAll}
                {...errorOf('scheduledAt', t('campaigns.dialog.scheduledAtHint'))}
              />
            )}
          />,
          <SwitchField
            key="confirmation"
            control={control}
            name="confirmation"
            label={t('campaigns.dialog.confirmation')}
            disabled={!canEditAll}
            sx={{ width: '100%', pt: 1 }}
          />,
        )}

        {isCloud && (
          <CampaignTemplateFields
            control={control}
            whatsappId={Number(values.whatsappId)}
            templates={templates.data?.templates}
            isLoading={templates.isPending}
            selected={template}
            current={campaign?.template ?? null}
            confirmation={confirmation}
            hasAttachment={Boolean(campaign?.mediaName)}
            canEdit={canEditAll}
            values={values.templateParams}
            errorOf={templateErrorOf}
            onPick={pickTemplate}
            onFocusParam={setActiveField}
          />
        )}

        {showsMessages && (
          <Box>
            <Tabs
              value={slot}
              onChange={(_event, value: MessageSlot) => changeSlot(value)}
              variant="scrollable"
              allowScrollButtonsMobile
              aria-label={t('campaigns.dialog.messagesLabel')}
              sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
            >
              {messageSlots.map((value) => (
                <Tab
                  key={value}
                  value={value}
                  label={t('campaigns.dialog.messageTab', { slot: value })}
                />
              ))}
            </Tabs>
            <Stack
              direction={{ xs: 'column', md: 'row' }}
              spacing={2}
              sx={{
                alignItems: 'flex-start',
              }}
            >
              {messageField(messageFields[slot - 1]!, t('campaigns.dialog.message', { slot }))}
              {showsConfirmationMessages &&
                messageField(
                  confirmationFields[slot - 1]!,
                  t('campaigns.dialog.confirmationMessage', { slot }),
                )}
            </Stack>
          </Box>
        )}

        {chipTarget !== undefined && (
          <Box>
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
                mb: 1,
              }}
            >
              {showsMessages
                ? t('campaigns.dialog.variablesHint')
                : t('campaigns.template.variablesHint')}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {variables.map((key) => (
                <Chip
                  key={key}
                  size="small"
                  variant="outlined"
                  label={`{{${key}}}`}
                  disabled={!canEditChipTarget}
                  onClick={() => insertVariable(key)}
                />
              ))}
            </Box>
          </Box>
        )}

        <Box>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {t('campaigns.dialog.media')}
          </Typography>
          <MediaAttachment
            campaign={campaign}
            canChange={canEditAll}
            onChanged={(record) => saved(record, 'update')}
          />
          {hasTemplate && template && (hasMediaHeader(template) || !confirmation) && (
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
                mt: 1,
              }}
            >
              {hasMediaHeader(template)
                ? t('campaigns.template.attachmentIsHeader')
                : t('campaigns.template.attachmentNotSent')}
            </Typography>
          )}
        </Box>
      </Stack>
    </DialogForm>
  );
};

// The campaign form (SPEC §2 Campaigns), wide; a new sessionKey gives each opening a fresh form.
export const CampaignDialog = ({
  open,
  campaign,
  sessionKey,
  onClose,
}: {
  open: boolean;
  campaign: CampaignView | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md">
    <CampaignForm initial={campaign} />
  </DialogFrame>
);
