import {
  Box,
  CircularProgress,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { can, type CampaignInput, type TemplateView } from '@atendi/shared';
import { Controller, type Control } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import { ERROR_TOAST_MS } from '../../api/toasts';
import {
  hasMediaHeader,
  TemplatePreview,
  templateLabel,
  templateStatusText,
  templateSyncErrorText,
} from '../../components/message-template';
import { setTemplates, syncTemplates } from '../../api/queries/templates';
import type { CampaignFormValues } from './campaign-dialog';

export type TemplatePart = 'header' | 'body';
export type TemplateParamPath = `templateParams.${TemplatePart}.${number}`;
export const paramPath = (part: TemplatePart, index: number): TemplateParamPath =>
  `templateParams.${part}.${index}`;

// One empty value per parameter of the template (none without one).
export const emptyTemplateParams = (template: TemplateView | undefined) => ({
  header: (template?.headerParams ?? []).map(() => ''),
  body: (template?.bodyParams ?? []).map(() => ''),
});

// The templates a campaign may pick: the approved ones, and the one it already has whatever its
// status now (so the form still shows it).
const templateChoices = (templates: TemplateView[], currentId: string) =>
  templates.filter(
    (template) => template.status === 'APPROVED' || String(template.id) === currentId,
  );

// Cloud API connections (SPEC: Meta's 24-hour rule): the approved template that opens each
// recipient's conversation, one value per parameter (variables allowed) and what the recipient reads.
export const CampaignTemplateFields = ({
  control,
  whatsappId,
  templates,
  isLoading,
  selected,
  current,
  confirmation,
  hasAttachment,
  canEdit,
  values,
  errorOf,
  onPick,
  onFocusParam,
}: {
  control: Control<CampaignFormValues, unknown, CampaignInput>;
  whatsappId: number;
  templates: TemplateView[] | undefined;
  isLoading: boolean;
  selected: TemplateView | undefined;
  // The campaign's saved template, shown while the list does not have it.
  current: { id: number; name: string; language: string } | null;
  confirmation: boolean;
  hasAttachment: boolean;
  canEdit: boolean;
  values: CampaignFormValues['templateParams'];
  // The translated error of a field, if any.
  errorOf: (path: 'templateId' | TemplateParamPath) => string | undefined;
  onPick: (templateId: string) => void;
  onFocusParam: (path: TemplateParamPath) => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useCurrentSession();
  const canSync = canEdit && can(user, 'connections-page:editOrDeleteConnection');
  const sync = useMutation({
    mutationFn: () => syncTemplates(whatsappId),
    meta: { silent: true },
    onSuccess: (list) => {
      setTemplates(queryClient, whatsappId, list);
      toast.success(t('campaigns.template.synced', { count: list.templates.length }));
    },
    onError: (error) => toast.error(templateSyncErrorText(error), { autoClose: ERROR_TOAST_MS }),
  });

  const templateError = errorOf('templateId');
  const approved = (templates ?? []).filter((template) => template.status === 'APPROVED');
  const hint =
    templates && approved.length === 0
      ? canSync
        ? t('campaigns.template.noneApproved')
        : t('campaigns.template.noneApprovedAskAdmin')
      : !selected
        ? t('campaigns.template.required')
        : confirmation
          ? t('campaigns.template.asConfirmation')
          : t('campaigns.template.asMessage');
  const mediaKind =
    selected && hasMediaHeader(selected)
      ? t(`templates.headerFormats.${selected.headerFormat}`)
      : null;

  const paramField = (part: TemplatePart, name: string, index: number) => {
    const path = paramPath(part, index);
    const param = `{{${name}}}`;
    const error = errorOf(path);
    return (
      <Controller
        key={path}
        name={path}
        control={control}
        render={({ field: { ref, value, ...field } }) => (
          <TextField
            {...field}
            value={value ?? ''}
            inputRef={ref}
            onFocus={() => onFocusParam(path)}
            label={part === 'header' ? t('campaigns.template.headerParam', { param }) : param}
            fullWidth
            multiline
            maxRows={4}
            disabled={!canEdit}
            error={Boolean(error)}
            helperText={error}
          />
        )}
      />
    );
  };

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'flex-start',
        }}
      >
        <Controller
          name="templateId"
          control={control}
          render={({ field: { ref, onChange, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              onChange={(event) => {
                onChange(event);
                onPick(event.target.value);
              }}
              select
              label={t('campaigns.template.label')}
              fullWidth
              disabled={!canEdit}
              error={Boolean(templateError)}
              helperText={templateError ?? hint}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{t('campaigns.dialog.none')}</MenuItem>
              {isLoading && (
                <MenuItem disabled>
                  <CircularProgress size={18} sx={{ mr: 1 }} />
                  {t('app.loading')}
                </MenuItem>
              )}
              {templateChoices(templates ?? [], field.value).map((template) => (
                <MenuItem key={template.id} value={String(template.id)}>
                  {template.status === 'APPROVED'
                    ? templateLabel(template)
                    : `${templateLabel(template)} · ${templateStatusText(template.status)}`}
                </MenuItem>
              ))}
              {current &&
                !templates?.some((template) => template.id === current.id) &&
                field.value === String(current.id) && (
                  <MenuItem value={String(current.id)}>{templateLabel(current)}</MenuItem>
                )}
            </TextField>
          )}
        />
        {canSync && (
          <Tooltip title={t('campaigns.template.sync')}>
            <span>
              <IconButton
                aria-label={t('campaigns.template.sync')}
                disabled={sync.isPending}
                onClick={() => sync.mutate()}
                sx={{ mt: 1 }}
              >
                {sync.isPending ? <CircularProgress size={20} /> : <SyncIcon />}
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Stack>

      {mediaKind && (
        <Typography
          variant="body2"
          color={hasAttachment ? 'text.secondary' : 'warning.main'}
          sx={{ mt: -1 }}
        >
          {hasAttachment
            ? t('campaigns.template.mediaHeader', { kind: mediaKind })
            : t('campaigns.template.mediaHeaderMissing', { kind: mediaKind })}
        </Typography>
      )}

      {selected && selected.headerParams.length + selected.bodyParams.length > 0 && (
        <Box>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {t('campaigns.template.values')}
          </Typography>
          <Stack spacing={2}>
            {selected.headerParams.map((name, index) => paramField('header', name, index))}
            {selected.bodyParams.map((name, index) => paramField('body', name, index))}
          </Stack>
        </Box>
      )}

      {selected && (
        <Box>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {t('templates.preview')}
          </Typography>
          <TemplatePreview template={selected} params={values} />
        </Box>
      )}
    </Stack>
  );
};
