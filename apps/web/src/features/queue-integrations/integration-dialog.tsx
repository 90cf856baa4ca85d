import type { ChangeEvent } from 'react';
import { Alert, Button, MenuItem, Stack, TextField } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch, type FieldError } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  integrationTypes,
  parseServiceAccount,
  type IntegrationInput,
  type IntegrationView,
} from '@atendi/shared';
import { ERROR_TOAST_MS } from '../../api/toasts';
import { CopyField } from '../../components/copy-field';
import { useDialogSave } from '../../components/dialog-save';
import { SelectField } from '../../components/select-field';
import { registerMui } from '../../lib/forms';
import { DialogflowSessionTest } from './dialogflow-session-test';
import { IntegrationLogo } from './integration-logo';
import {
  fieldsOfType,
  integrationFormDefaults,
  integrationResolver,
  postsEvents,
  serverFieldErrors,
  type IntegrationFormField,
  type IntegrationFormValues,
} from './integration-form.schema';
import {
  applyIntegrationEventToCache,
  createIntegration,
  updateIntegration,
} from './queue-integrations.api';
import { FieldRow } from '../../components/field-row';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

// jsdom and older browsers lack Blob.text(); FileReader reads everywhere.
const readText = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });

const IntegrationForm = ({ integration }: { integration: IntegrationView | null }) => {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const hasStoredKey = Boolean(integration?.hasJsonContent);
  const form = useForm<IntegrationFormValues, unknown, IntegrationInput>({
    resolver: integrationResolver(hasStoredKey),
    defaultValues: integrationFormDefaults(integration),
  });
  const {
    register,
    control,
    setValue,
    formState: { errors, isSubmitted },
  } = form;
  const type = useWatch({ control, name: 'type' });
  const jsonContent = useWatch({ control, name: 'jsonContent' });
  const projectName = useWatch({ control, name: 'projectName' });
  const language = useWatch({ control, name: 'language' });
  // The account of a key pasted now, so a wrong file is noticed before saving.
  const typedAccount = jsonContent.trim() ? parseServiceAccount(jsonContent) : null;

  const save = useDialogSave(form, {
    save: async (input) => {
      // An empty key keeps the stored one: it is left out of the change.
      const { jsonContent: key, ...rest } = input;
      const saved = integration
        ? await updateIntegration(integration.id, key ? input : rest)
        : await createIntegration(input);
      applyIntegrationEventToCache(queryClient, {
        action: integration ? 'update' : 'create',
        queueIntegration: saved,
      });
    },
    savedText: t('queueIntegrations.saved'),
    fields: (error) => serverFieldErrors(error, (key) => i18n.exists(key)),
  });
  const { isSubmitting } = save;

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Let the same file be chosen again after an edit.
    event.target.value = '';
    if (!file) return;
    try {
      const text = await readText(file);
      setValue('jsonContent', text.trim(), { shouldDirty: true, shouldValidate: isSubmitted });
    } catch {
      toast.error(t('queueIntegrations.form.keyFileUnreadable'), { autoClose: ERROR_TOAST_MS });
    }
  };

  const errorOf = (error: FieldError | undefined, hint?: string) => ({
    error: Boolean(error),
    helperText: error?.message ? t(error.message) : hint,
  });

  const textField = (
    field: Exclude<IntegrationFormField, 'type'>,
    options: {
      label?: string;
      hint?: string;
      multiline?: boolean;
      numeric?: boolean;
      placeholder?: string;
    } = {},
  ) => (
    <TextField
      {...registerMui(register, field)}
      label={options.label ?? t(`queueIntegrations.form.${field}`)}
      placeholder={options.placeholder}
      autoComplete="off"
      fullWidth
      disabled={isSubmitting}
      multiline={options.multiline}
      minRows={options.multiline ? 2 : undefined}
      maxRows={options.multiline ? 6 : undefined}
      slotProps={options.numeric ? { htmlInput: { inputMode: 'numeric' } } : undefined}
      {...errorOf(errors[field], options.hint)}
    />
  );

  const keyHint = () => {
    if (typedAccount)
      return t('queueIntegrations.form.keyOf', { email: typedAccount.client_email });
    return hasStoredKey ? t('queueIntegrations.form.keyKept') : t('queueIntegrations.form.keyHint');
  };

  return (
    <DialogForm
      title={
        integration
          ? t('queueIntegrations.dialog.editTitle')
          : t('queueIntegrations.dialog.addTitle')
      }
      {...save}
      submitLabel={integration ? t('common.save') : t('queueIntegrations.dialog.add')}
    >
      <Stack spacing={2.5}>
        <FieldRow>
          <SelectField
            control={control}
            name="type"
            label={t('queueIntegrations.form.type')}
            disabled={isSubmitting}
            sx={{ maxWidth: { sm: 240 } }}
            slotProps={{
              select: {
                renderValue: (value) => t(`queueIntegrations.types.${String(value)}`),
              },
            }}
            {...errorOf(errors.type)}
          >
            {integrationTypes.map((value) => (
              <MenuItem key={value} value={value} sx={{ gap: 1.5 }}>
                <IntegrationLogo type={value} size={24} decorative />
                {t(`queueIntegrations.types.${value}`)}
              </MenuItem>
            ))}
          </SelectField>
          <TextField
            {...registerMui(register, 'name')}
            label={t('queueIntegrations.form.name')}
            autoComplete="off"
            autoFocus
            fullWidth
            disabled={isSubmitting}
            {...errorOf(errors.name)}
          />
        </FieldRow>

        {/* One stored address, named for what it is in each type. */}
        {fieldsOfType[type].includes('urlN8N') &&
          textField('urlN8N', {
            label: t(`queueIntegrations.form.url.${type}`),
            hint: t(`queueIntegrations.form.urlHint.${type}`),
            placeholder: type === 'typebot' ? 'https://typebot.io' : 'https://',
          })}
        {type === 'typebot' && (
          <>
            {textField('typebotSlug', { hint: t('queueIntegrations.form.typebotSlugHint') })}
            <FieldRow>
              {textField('typebotExpires', {
                numeric: true,
                hint: t('queueIntegrations.form.typebotExpiresHint'),
              })}
              {textField('typebotDelayMessage', {
                numeric: true,
                hint: t('queueIntegrations.form.typebotDelayMessageHint'),
              })}
            </FieldRow>
            <FieldRow>
              {textField('typebotKeywordFinish', {
                hint: t('queueIntegrations.form.typebotKeywordFinishHint'),
              })}
              {textField('typebotKeywordRestart', {
                hint: t('queueIntegrations.form.typebotKeywordRestartHint'),
              })}
            </FieldRow>
            {textField('typebotUnknownMessage', {
              multiline: true,
              hint: t('queueIntegrations.form.typebotUnknownMessageHint'),
            })}
            {textField('typebotRestartMessage', {
              multiline: true,
              hint: t('queueIntegrations.form.typebotRestartMessageHint'),
            })}
          </>
        )}
        {postsEvents(type) &&
          (integration?.signingSecret && postsEvents(integration.type) ? (
            // The secret n8n and webhook receivers check X-Atendi-Signature with.
            <CopyField
              label={t('queueIntegrations.form.signingSecret')}
              value={integration.signingSecret}
              helperText={t('queueIntegrations.form.signingSecretHint')}
              copyLabel={t('queueIntegrations.form.copySecret')}
              copiedText={t('queueIntegrations.form.secretCopied')}
            />
          ) : (
            <Alert severity="info">{t('queueIntegrations.form.secretAfterSave')}</Alert>
          ))}

        {type === 'dialogflow' && (
          <>
            <FieldRow>
              {textField('projectName', { hint: t('queueIntegrations.form.projectNameHint') })}
              {textField('language', {
                hint: t('queueIntegrations.form.languageHint'),
                placeholder: 'es',
              })}
            </FieldRow>
            {hasStoredKey && (
              <Alert severity="success">
                {t('queueIntegrations.form.keyStored', {
                  email: integration?.clientEmail ?? t('queueIntegrations.form.keyNoEmail'),
                })}
              </Alert>
            )}
            <TextField
              {...registerMui(register, 'jsonContent')}
              label={t('queueIntegrations.form.jsonContent')}
              placeholder='{ "type": "service_account", … }'
              multiline
              minRows={4}
              maxRows={10}
              fullWidth
              disabled={isSubmitting}
              slotProps={{
                htmlInput: { spellCheck: false, sx: { fontFamily: 'monospace', fontSize: 13 } },
              }}
              {...errorOf(errors.jsonContent, keyHint())}
            />
            <div>
              <Button
                component="label"
                variant="outlined"
                size="small"
                startIcon={<UploadFileIcon />}
                disabled={isSubmitting}
              >
                {t('queueIntegrations.form.keyFile')}
                <input
                  hidden
                  type="file"
                  accept=".json,application/json"
                  aria-label={t('queueIntegrations.form.keyFile')}
                  data-testid="integration-key-file"
                  onChange={(event) => void onFileChosen(event)}
                />
              </Button>
            </div>
            <DialogflowSessionTest
              projectName={projectName}
              language={language}
              jsonContent={jsonContent}
              hasStoredKey={hasStoredKey}
              integrationId={integration?.id}
              disabled={isSubmitting}
            />
          </>
        )}
      </Stack>
    </DialogForm>
  );
};

// The integration modal (SPEC §2); sessionKey gives every opening a fresh form.
export const IntegrationDialog = ({
  open,
  integration,
  sessionKey,
  onClose,
}: {
  open: boolean;
  integration: IntegrationView | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md">
    <IntegrationForm integration={integration} />
  </DialogFrame>
);
