import type { ReactNode } from 'react';
import { Box, Button, Chip, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type RefCallBack } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { messageMediaExtensions } from '@atendi/shared';
import { useConnections } from '../../api/queries/connections';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui, useFieldError } from '../../lib/forms';
import { prettyJson } from './curl-examples';
import {
  mediaSendFormSchema,
  textSendFormSchema,
  type MediaSendFormValues,
  type TextSendFormValues,
} from './send-forms.schema';
import { useExternalSend, type SendResult } from './use-external-send';

const ResultBox = ({ result, testId }: { result: SendResult | null; testId: string }) => {
  const { t } = useTranslation();
  return (
    <Box
      data-testid={testId}
      aria-live="polite"
      aria-label={t('messagesApi.test.result')}
      role="region"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }}
    >
      {!result && (
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('messagesApi.test.noResult')}
        </Typography>
      )}
      {result?.kind === 'noAnswer' && (
        <Typography variant="body2" color="error">
          {t('messagesApi.test.noAnswer')}
        </Typography>
      )}
      {result?.kind === 'answer' && (
        <Stack spacing={1}>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{
              alignItems: 'center',
              flexWrap: 'wrap',
            }}
          >
            <Chip
              size="small"
              label={`HTTP ${result.status}`}
              color={result.status >= 200 && result.status < 300 ? 'success' : 'error'}
            />
            {result.retryAfter !== undefined && (
              <Typography
                variant="body2"
                sx={{
                  color: 'text.secondary',
                }}
              >
                {t('messagesApi.test.retryAfter', { count: result.retryAfter })}
              </Typography>
            )}
          </Stack>
          {result.body !== null && (
            <Box
              component="pre"
              sx={{
                m: 0,
                p: 1.5,
                bgcolor: 'action.hover',
                borderRadius: 1,
                overflow: 'auto',
                maxHeight: 360,
                fontFamily: 'monospace',
                fontSize: '0.8125rem',
                whiteSpace: 'pre',
              }}
            >
              {typeof result.body === 'string' ? result.body : prettyJson(result.body)}
            </Box>
          )}
        </Stack>
      )}
    </Box>
  );
};

const FormCard = ({
  title,
  onSubmit,
  isSubmitting,
  children,
  result,
  resultTestId,
}: {
  title: string;
  onSubmit: () => void;
  isSubmitting: boolean;
  children: ReactNode;
  result: SendResult | null;
  resultTestId: string;
}) => {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, flex: 1, minWidth: 0 }}>
      <Stack spacing={2}>
        <Box component="form" aria-label={title} noValidate onSubmit={onSubmit}>
          <Stack spacing={2}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {title}
            </Typography>
            {children}
            <Box>
              <Button type="submit" variant="contained" disabled={isSubmitting}>
                {t('messagesApi.test.submit')}
              </Button>
            </Box>
          </Stack>
        </Box>
        <ResultBox result={result} testId={resultTestId} />
      </Stack>
    </Paper>
  );
};

const monospace = { htmlInput: { sx: { fontFamily: 'monospace' } } };

type Registration = ReturnType<typeof registerMui>;

// Which connection sends: picked by name where the user may see the connections' tokens (the token
// then only shows its last characters), otherwise typed, masked like a password.
const TokenField = ({
  field,
  fieldError,
}: {
  // The form's token field (either form's).
  field: {
    name: string;
    value: string;
    onChange: (...event: unknown[]) => void;
    onBlur: () => void;
    ref: RefCallBack;
    disabled?: boolean;
  };
  fieldError: { error: boolean; helperText?: string };
}) => {
  const { t } = useTranslation();
  const withTokens = (useConnections().data ?? []).filter((connection) => connection.token);
  if (withTokens.length === 0)
    return (
      <TextField
        {...field}
        inputRef={field.ref}
        type="password"
        label={t('messagesApi.test.token')}
        autoComplete="off"
        fullWidth
        slotProps={monospace}
        {...fieldError}
      />
    );
  return (
    <TextField
      {...field}
      inputRef={field.ref}
      select
      label={t('messagesApi.test.connection')}
      fullWidth
      {...fieldError}
      helperText={
        fieldError.helperText ??
        (field.value
          ? t('messagesApi.test.tokenEnd', { end: field.value.slice(-4) })
          : t('messagesApi.test.connectionHint'))
      }
    >
      {withTokens.map((connection) => (
        <MenuItem key={connection.id} value={connection.token ?? ''}>
          {connection.name}
        </MenuItem>
      ))}
    </TextField>
  );
};

// What both forms start with: the sending connection and the contact's number.
const TokenAndNumber = ({
  token,
  number,
  fieldError,
}: {
  token: ReactNode;
  number: Registration;
  fieldError: (name: 'number') => { error: boolean; helperText: string | undefined };
}) => {
  const { t } = useTranslation();
  return (
    <>
      {token}
      <TextField
        {...number}
        label={t('messagesApi.test.number')}
        placeholder="5511999999999"
        autoComplete="off"
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'tel' } }}
        {...fieldError('number')}
        helperText={fieldError('number').helperText ?? t('messagesApi.test.numberHint')}
      />
    </>
  );
};

export const TextSendForm = () => {
  const { t } = useTranslation();
  const { result, send } = useExternalSend();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TextSendFormValues>({
    resolver: zodResolver(textSendFormSchema),
    defaultValues: { token: '', number: '', body: '' },
  });
  const fieldError = useFieldError(errors);

  const onSubmit = async ({ token, number, body }: TextSendFormValues) => {
    await waitBeforeSubmit();
    await send(token, { number, body }, JSON.stringify([token, number, body]));
  };

  return (
    <FormCard
      title={t('messagesApi.test.textForm')}
      onSubmit={handleSubmit(onSubmit)}
      isSubmitting={isSubmitting}
      result={result}
      resultTestId="messages-api-result-text"
    >
      <TokenAndNumber
        token={
          <Controller
            name="token"
            control={control}
            render={({ field }) => <TokenField field={field} fieldError={fieldError('token')} />}
          />
        }
        number={registerMui(register, 'number')}
        fieldError={fieldError}
      />
      <TextField
        {...registerMui(register, 'body')}
        label={t('messagesApi.test.body')}
        multiline
        minRows={3}
        fullWidth
        {...fieldError('body')}
      />
    </FormCard>
  );
};

export const MediaSendForm = () => {
  const { t } = useTranslation();
  const { result, send } = useExternalSend();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<MediaSendFormValues>({
    resolver: zodResolver(mediaSendFormSchema),
    defaultValues: { token: '', number: '', body: '', medias: null },
  });
  const fieldError = useFieldError(errors);

  const onSubmit = async ({ token, number, body, medias }: MediaSendFormValues) => {
    if (!medias) return;
    await waitBeforeSubmit();
    const form = new FormData();
    form.append('number', number);
    if (body.trim()) form.append('body', body);
    form.append('medias', medias);
    const fingerprint = JSON.stringify([
      token,
      number,
      body,
      medias.name,
      medias.size,
      medias.lastModified,
    ]);
    await send(token, form, fingerprint);
  };

  return (
    <FormCard
      title={t('messagesApi.test.mediaForm')}
      onSubmit={handleSubmit(onSubmit)}
      isSubmitting={isSubmitting}
      result={result}
      resultTestId="messages-api-result-media"
    >
      <TokenAndNumber
        token={
          <Controller
            name="token"
            control={control}
            render={({ field }) => <TokenField field={field} fieldError={fieldError('token')} />}
          />
        }
        number={registerMui(register, 'number')}
        fieldError={fieldError}
      />
      <TextField
        {...registerMui(register, 'body')}
        label={t('messagesApi.test.body')}
        multiline
        minRows={2}
        fullWidth
        {...fieldError('body')}
        helperText={fieldError('body').helperText ?? t('messagesApi.test.captionHint')}
      />
      <Controller
        name="medias"
        control={control}
        render={({ field: { ref, name, onBlur, onChange, value } }) => (
          // The browser's own file input writes its words in the browser's language: a button in
          // the app's language, and the chosen file's name beside it.
          <Stack spacing={0.5}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
              <Button component="label" variant="outlined" startIcon={<AttachFileIcon />}>
                {t('messagesApi.test.chooseFile')}
                <input
                  hidden
                  type="file"
                  name={name}
                  ref={ref}
                  onBlur={onBlur}
                  aria-label={t('messagesApi.test.file')}
                  accept={messageMediaExtensions.join(',')}
                  onChange={(event) => onChange(event.target.files?.[0] ?? null)}
                />
              </Button>
              <Typography variant="body2" noWrap sx={{ minWidth: 0 }}>
                {value ? value.name : t('messagesApi.test.noFile')}
              </Typography>
            </Stack>
            {fieldError('medias').error && (
              <Typography variant="caption" color="error">
                {fieldError('medias').helperText}
              </Typography>
            )}
          </Stack>
        )}
      />
    </FormCard>
  );
};
