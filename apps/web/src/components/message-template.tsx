import { Box, Chip, Stack, Typography, type ChipProps } from '@mui/material';
import {
  renderTemplate,
  templateMediaHeaders,
  type TemplateHeaderFormat,
  type TemplateParams,
  type TemplateShape,
} from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/http-client';
import { errorText } from '../api/toasts';
import { i18n } from '../i18n/i18n';
import { WhatsappText } from './whatsapp-text';

// WhatsApp Cloud API message templates (packages/shared templates.ts) as the connections page, the
// campaign form and the inbox composer show them.

type NamedTemplate = { name: string; language: string };

// A template in a list or a picker: its name and language (a name may exist in several languages).
export const templateLabel = (template: NamedTemplate) => `${template.name} (${template.language})`;

// Whether the template's header shows a file, given when it is sent (campaigns: the attachment).
export const hasMediaHeader = (template: { headerFormat: TemplateHeaderFormat | null }) =>
  template.headerFormat !== null && templateMediaHeaders.includes(template.headerFormat);

// Meta's statuses: approved ones can be sent, pending ones soon, paused ones (Meta's pause for low
// quality, told live by its webhooks) once Meta lifts the pause, the rest not.
const statusColor = (status: string): ChipProps['color'] => {
  if (status === 'APPROVED') return 'success';
  if (status === 'PENDING' || status === 'IN_APPEAL' || status === 'PAUSED') return 'warning';
  if (status === 'REJECTED' || status === 'DISABLED') return 'error';
  return 'default';
};

export const templateStatusText = (status: string) =>
  i18n.t(`templates.statuses.${status}`, { defaultValue: status });

export const TemplateStatusChip = ({ status }: { status: string }) => {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={statusColor(status)}
      label={t(`templates.statuses.${status}`, { defaultValue: status })}
    />
  );
};

// A sync the server refused: a connection without its WhatsApp Business Account id says where to set
// it; anything else (Meta refusing the token, the account unreachable) as the API tells it.
export const templateSyncErrorText = (error: unknown) =>
  error instanceof ApiError && error.fields?.cloudBusinessAccountId
    ? i18n.t('templates.businessAccountMissing')
    : errorText(error);

// A value not written yet shows its parameter, as the template has it.
const withPlaceholders = (names: string[], values: string[] = []) =>
  names.map((name, index) => (values[index]?.trim() ? values[index] : `{{${name}}}`));

// What the contact reads: the header's file (if any), the text with the values written so far, and the
// buttons. Values are shown raw: a campaign's {{firstName}} is filled per recipient.
export const TemplatePreview = ({
  template,
  params,
}: {
  template: TemplateShape;
  params?: Partial<TemplateParams>;
}) => {
  const { t } = useTranslation();
  const text = renderTemplate(template, {
    header: withPlaceholders(template.headerParams, params?.header),
    body: withPlaceholders(template.bodyParams, params?.body),
  });
  return (
    <Box
      component="figure"
      aria-label={t('templates.preview')}
      sx={(theme) => ({
        m: 0,
        p: 1.5,
        borderRadius: 2,
        maxWidth: 480,
        bgcolor: theme.palette.mode === 'light' ? '#d9fdd3' : '#005c4b',
        color: theme.palette.mode === 'light' ? 'text.primary' : '#e9edef',
      })}
    >
      {template.headerFormat !== null && template.headerFormat !== 'TEXT' && (
        <Typography variant="caption" component="div" sx={{ fontWeight: 600, mb: 0.5 }}>
          {t('templates.headerFile', {
            kind: t(`templates.headerFormats.${template.headerFormat}`),
          })}
        </Typography>
      )}
      <Typography
        variant="body2"
        component="div"
        sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        <WhatsappText text={text} />
      </Typography>
      {template.buttons.length > 0 && (
        <Stack
          direction="row"
          spacing={0.5}
          useFlexGap
          sx={{
            flexWrap: 'wrap',
            mt: 1,
          }}
        >
          {template.buttons.map((button, index) => (
            <Chip key={index} size="small" variant="outlined" label={button} />
          ))}
        </Stack>
      )}
    </Box>
  );
};
