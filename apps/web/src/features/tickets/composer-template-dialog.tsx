import {
  Alert,
  Box,
  CircularProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import {
  TEMPLATE_PARAM_MAX,
  templateParamIssues,
  type TemplateView,
  type TicketView,
} from '@atendi/shared';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http-client';
import { templateKeys, useTemplates } from '../../api/queries/templates';
import { toastError } from '../../api/toasts';
import { hasMediaHeader, TemplatePreview, templateLabel } from '../../components/message-template';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { sendTemplate } from './composer-api';
import { applyMessagesToCache } from './tickets.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

type Part = 'header' | 'body';
type ParamPath = `params.${Part}.${number}`;
type TemplateFormValues = { templateId: string; params: { header: string[]; body: string[] } };

// What the inbox can send: approved templates whose header shows no file (those need a file, which
// campaigns give: their attachment).
const sendableInChat = (template: TemplateView) =>
  template.status === 'APPROVED' && !hasMediaHeader(template);

// One empty value per parameter: nothing is guessed for the agent.
const emptyParams = (template: TemplateView | undefined) => ({
  header: (template?.headerParams ?? []).map(() => ''),
  body: (template?.bodyParams ?? []).map(() => ''),
});

// A field the API refused: the template itself, or a value (`templateParams.body.1`, or `params.…`
// when the body's own rules refused it).
const PARAM_FIELD = /^(?:templateParams|params)\.(header|body)\.(\d+)$/;

const TemplateForm = ({ ticket, onClose }: { ticket: TicketView; onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const templates = useTemplates(ticket.whatsappId, { silent: true });
  const choices = (templates.data?.templates ?? []).filter(sendableInChat);
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<TemplateFormValues>({
    defaultValues: { templateId: '', params: emptyParams(undefined) },
  });
  const templateId = useWatch({ control, name: 'templateId' });
  const params = useWatch({ control, name: 'params' });
  const template = choices.find((row) => String(row.id) === templateId);

  const paramError = (part: Part, index: number) => {
    const message = errors.params?.[part]?.[index]?.message;
    return message ? t(message) : undefined;
  };

  const onSubmit = async (values: TemplateFormValues) => {
    if (!template) {
      setError('templateId', { message: 'tickets.composer.template.templateRequired' });
      return;
    }
    const tooLong = (['header', 'body'] as const).flatMap((part) =>
      values.params[part].flatMap((value, index) =>
        value.length > TEMPLATE_PARAM_MAX ? [`params.${part}.${index}` as ParamPath] : [],
      ),
    );
    tooLong.forEach((path) => setError(path, { message: 'tickets.composer.template.tooLong' }));
    const missing = templateParamIssues(template, values.params);
    missing.forEach((issue) =>
      setError(issue.path.replace(/^templateParams\./, 'params.') as ParamPath, {
        message: 'tickets.composer.template.required',
      }),
    );
    if (tooLong.length || missing.length) return;
    await waitBeforeSubmit();
    try {
      const messages = await sendTemplate(ticket.id, {
        templateId: template.id,
        params: values.params,
      });
      applyMessagesToCache(queryClient, ticket.id, messages);
      toast.success(t('tickets.composer.template.sent'));
      onClose();
    } catch (error) {
      const fields =
        error instanceof ApiError && error.code === 'ERR_VALIDATION' ? error.fields : {};
      let shown = false;
      for (const [field, messages] of Object.entries(fields ?? {})) {
        const param = PARAM_FIELD.exec(field);
        if (param) {
          const isRequired = messages.some((message) => /obligatori|required/i.test(message));
          setError(`params.${param[1] as Part}.${Number(param[2])}`, {
            message: isRequired
              ? 'tickets.composer.template.required'
              : 'tickets.composer.template.tooLong',
          });
          shown = true;
        } else if (field === 'templateId') {
          setError('templateId', { message: 'tickets.composer.template.refused' });
          shown = true;
        }
      }
      if (shown) return;
      toastError(error);
      // A template gone since the list was read: read it again.
      if (error instanceof ApiError && error.code === 'ERR_NO_TEMPLATE_FOUND')
        void queryClient.invalidateQueries({ queryKey: templateKeys.list(ticket.whatsappId) });
    }
  };

  const templateError = errors.templateId?.message;
  const hint =
    templates.isSuccess && choices.length === 0 ? t('tickets.composer.template.none') : undefined;

  const paramField = (part: Part, name: string, index: number) => {
    const error = paramError(part, index);
    const param = `{{${name}}}`;
    return (
      <Controller
        key={`${part}.${index}`}
        name={`params.${part}.${index}`}
        control={control}
        render={({ field: { ref, value, ...field } }) => (
          <TextField
            {...field}
            value={value ?? ''}
            inputRef={ref}
            label={
              part === 'header' ? t('tickets.composer.template.headerParam', { param }) : param
            }
            fullWidth
            multiline
            maxRows={4}
            error={Boolean(error)}
            helperText={error}
          />
        )}
      />
    );
  };

  return (
    <DialogForm
      title={t('tickets.composer.template.title')}
      onSubmit={handleSubmit(onSubmit)}
      isSubmitting={isSubmitting}
      submitLabel={t('tickets.composer.template.send')}
    >
      <Stack spacing={2.5}>
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('tickets.composer.template.intro')}
        </Typography>
        {templates.isError ? (
          <Alert severity="error">{t('tickets.composer.template.loadFailed')}</Alert>
        ) : (
          <Controller
            name="templateId"
            control={control}
            render={({ field: { ref, onChange, ...field } }) => (
              <TextField
                {...field}
                inputRef={ref}
                onChange={(event) => {
                  onChange(event);
                  const picked = choices.find((row) => String(row.id) === event.target.value);
                  setValue('params', emptyParams(picked));
                  clearErrors();
                }}
                select
                autoFocus
                label={t('tickets.composer.template.label')}
                fullWidth
                error={Boolean(templateError)}
                helperText={templateError ? t(templateError) : hint}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="" disabled>
                  {t('tickets.composer.template.choose')}
                </MenuItem>
                {templates.isPending && (
                  <MenuItem disabled>
                    <CircularProgress size={18} sx={{ mr: 1 }} />
                    {t('app.loading')}
                  </MenuItem>
                )}
                {choices.map((row) => (
                  <MenuItem key={row.id} value={String(row.id)}>
                    {templateLabel(row)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        )}
        {template && template.headerParams.length + template.bodyParams.length > 0 && (
          <Stack spacing={2}>
            {template.headerParams.map((name, index) => paramField('header', name, index))}
            {template.bodyParams.map((name, index) => paramField('body', name, index))}
          </Stack>
        )}
        {template && (
          <Box>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {t('templates.preview')}
            </Typography>
            <TemplatePreview template={template} params={params} />
          </Box>
        )}
      </Stack>
    </DialogForm>
  );
};

// Outside the contact's 24-hour window (Cloud API tickets) only an approved template goes out: pick
// one, write its values, see what the contact reads, send. A new sessionKey gives a fresh form.
export const TemplateSendDialog = ({
  open,
  ticket,
  sessionKey,
  onClose,
}: {
  open: boolean;
  ticket: TicketView;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
    <TemplateForm ticket={ticket} onClose={onClose} />
  </DialogFrame>
);
