import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { format, startOfMonth } from 'date-fns';
import { Controller, useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  CONVERSATION_EXPORT_MAX_DAYS,
  conversationExportFormats,
  type ConversationExport,
} from '@atendi/shared';
import type { ApiError } from '../../api/http-client';
import { errorText, toastError } from '../../api/toasts';
import { DateField, INVALID_DATE } from '../../components/date-field';
import { useDeleteConfirm } from '../../components/delete-confirm';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';
import { useDialogSave, type FieldText } from '../../components/dialog-save';
import { LoadingBox } from '../../components/loading-box';
import { actionsColumn, RowAction, type TableColumn } from '../../components/paged-table';
import { SelectField } from '../../components/select-field';
import { SwitchField } from '../../components/switch-field';
import { formatBytes } from '../../lib/bytes';
import { formatDateTime, parseDate } from '../../lib/dates';
import { useNow } from '../../lib/use-now';
import { AdminToolbar } from './shared/admin-table';
import {
  deleteConversationExport,
  downloadConversationExport,
  isBuilding,
  useConversationExports,
  useCreateConversationExport,
  useForgetConversationExport,
} from './conversation-exports.api';
import { WebhookTable } from './webhook-table';

// Issue 38: the company's conversations taken out. Every conversation that began between two days
// (the company's time zone), as JSON Lines or CSV, optionally with their files in a ZIP; built in the
// background while the list follows its progress, kept for a limited time.

// A day as the date field holds it (yyyy-MM-dd).
const dayValue = (date: Date) => format(date, 'yyyy-MM-dd');
const dayNumber = (value: string) => Date.parse(`${value}T00:00:00Z`) / 86_400_000;

// A calendar day of the API (yyyy-MM-dd) as SPEC §9's dd/MM/yyyy: read as text, never as a Date (a
// Date would be midnight UTC, the day before west of Greenwich).
const formatDay = (value: string) => value.split('-').reverse().join('/');
const rangeOf = (item: ConversationExport) =>
  `${formatDay(item.dateFrom)} – ${formatDay(item.dateTo)}`;

const isDay = (value: string) => Boolean(value) && value !== INVALID_DATE;

// The API's own rules (packages/shared conversation-exports.ts), said before sending.
const formSchema = z
  .object({
    dateFrom: z.string().refine(isDay, 'settings.exports.dateRequired'),
    dateTo: z.string().refine(isDay, 'settings.exports.dateRequired'),
    format: z.enum(conversationExportFormats),
    includeMedia: z.boolean(),
  })
  .refine(
    (values) =>
      !isDay(values.dateFrom) ||
      !isDay(values.dateTo) ||
      dayNumber(values.dateTo) >= dayNumber(values.dateFrom),
    { path: ['dateTo'], message: 'settings.exports.toBeforeFrom' },
  )
  .refine(
    (values) =>
      !isDay(values.dateFrom) ||
      !isDay(values.dateTo) ||
      dayNumber(values.dateTo) - dayNumber(values.dateFrom) < CONVERSATION_EXPORT_MAX_DAYS,
    { path: ['dateTo'], message: 'settings.exports.rangeTooLong' },
  );
type FormValues = z.infer<typeof formSchema>;

// From the first of the month to today.
const initialValues = (): FormValues => {
  const today = new Date();
  return {
    dateFrom: dayValue(startOfMonth(today)),
    dateTo: dayValue(today),
    format: 'jsonl',
    includeMedia: false,
  };
};

const formFields = ['dateFrom', 'dateTo', 'format', 'includeMedia'] as const;

// A 400 naming the days says under them what a range must be; any other field, "Revise los datos".
const fieldErrors = (error: ApiError): FieldText<FormValues>[] =>
  formFields
    .filter((field) => error.fields?.[field])
    .map((field) => [
      field as Path<FormValues>,
      field === 'dateFrom' || field === 'dateTo'
        ? 'settings.exports.rangeRefused'
        : 'errors.ERR_VALIDATION',
    ]);

const ExportForm = () => {
  const { t } = useTranslation();
  const create = useCreateConversationExport();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: initialValues(),
  });
  const save = useDialogSave(form, {
    save: (values) => create.mutateAsync(values),
    savedText: t('settings.exports.created'),
    fields: fieldErrors,
  });
  const dateFrom = form.watch('dateFrom');
  const texts = { max: CONVERSATION_EXPORT_MAX_DAYS };
  const title = t('settings.exports.addTitle');
  return (
    <DialogForm
      title={title}
      aria-label={title}
      {...save}
      submitLabel={t('settings.exports.create')}
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Controller
            name="dateFrom"
            control={form.control}
            render={({ field, fieldState }) => (
              <DateField
                kind="date"
                label={t('settings.exports.dateFrom')}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                name={field.name}
                fullWidth
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message && t(fieldState.error.message, texts)}
              />
            )}
          />
          <Controller
            name="dateTo"
            control={form.control}
            render={({ field, fieldState }) => (
              <DateField
                kind="date"
                label={t('settings.exports.dateTo')}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                name={field.name}
                min={isDay(dateFrom) ? dateFrom : undefined}
                fullWidth
                error={Boolean(fieldState.error)}
                helperText={
                  fieldState.error?.message
                    ? t(fieldState.error.message, texts)
                    : t('settings.exports.rangeHint', texts)
                }
              />
            )}
          />
        </Stack>
        <SelectField
          control={form.control}
          name="format"
          label={t('settings.exports.format')}
          helperText={t(`settings.exports.formatHints.${form.watch('format')}`)}
        >
          {conversationExportFormats.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`settings.exports.formats.${value}`)}
            </MenuItem>
          ))}
        </SelectField>
        <Box>
          <SwitchField
            control={form.control}
            name="includeMedia"
            label={t('settings.exports.includeMedia')}
          />
          <Typography variant="caption" color="text.secondary" component="p">
            {t('settings.exports.includeMediaHint')}
          </Typography>
        </Box>
      </Stack>
    </DialogForm>
  );
};

// Where an export is: waiting, being built (how far), ready (its size and until when), or failed.
const ExportState = ({ item }: { item: ConversationExport }) => {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const colors = { pending: 'default', running: 'info', done: 'success', failed: 'error' } as const;
  const expiresAt = parseDate(item.expiresAt);
  const expired = item.status === 'done' && expiresAt !== null && expiresAt.getTime() <= now;
  const percent =
    item.total === null ? null : item.total === 0 ? 100 : (item.done / item.total) * 100;
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start', minWidth: 160 }}>
      <Chip
        size="small"
        variant="outlined"
        color={expired ? 'default' : colors[item.status]}
        label={t(
          expired ? 'settings.exports.states.expired' : `settings.exports.states.${item.status}`,
        )}
      />
      {item.status === 'running' && (
        <Box sx={{ width: '100%', maxWidth: 220 }}>
          <LinearProgress
            variant={percent === null ? 'indeterminate' : 'determinate'}
            value={percent ?? undefined}
            aria-label={t('settings.exports.progressLabel', { range: rangeOf(item) })}
          />
          <Typography variant="caption" color="text.secondary">
            {item.total === null
              ? t('settings.exports.counting')
              : t('settings.exports.progress', { done: item.done, total: item.total })}
          </Typography>
        </Box>
      )}
      {item.status === 'done' && (
        <Typography variant="caption" color="text.secondary">
          {[
            item.size === null ? null : formatBytes(item.size, i18n.language),
            expiresAt
              ? t(expired ? 'settings.exports.expiredOn' : 'settings.exports.availableUntil', {
                  date: formatDateTime(expiresAt),
                })
              : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Typography>
      )}
      {item.status === 'failed' && item.error && (
        <Typography variant="caption" color="error" sx={{ overflowWrap: 'anywhere' }}>
          {item.error}
        </Typography>
      )}
    </Stack>
  );
};

export const ConversationExportsTab = () => {
  const { t } = useTranslation();
  const exports = useConversationExports();
  const forget = useForgetConversationExport();
  const now = useNow();
  const [dialog, setDialog] = useState({ open: false, session: 0 });
  const [downloading, setDownloading] = useState<number | null>(null);

  const openDialog = () => setDialog((current) => ({ open: true, session: current.session + 1 }));
  const closeDialog = () => setDialog((current) => ({ ...current, open: false }));

  const confirmDelete = useDeleteConfirm({
    remove: (item: ConversationExport) => deleteConversationExport(item.id),
    onDeleted: (item) => forget(item.id),
    deletedText: t('settings.exports.deleted'),
    title: (item) => t('settings.exports.deleteTitle', { range: rangeOf(item) }),
    message: (item) =>
      t(isBuilding(item) ? 'settings.exports.deleteBuildingText' : 'settings.exports.deleteText'),
    confirmLabel: t('settings.delete'),
  });

  const download = async (item: ConversationExport) => {
    setDownloading(item.id);
    try {
      await downloadConversationExport(item);
    } catch (error) {
      toastError(error);
    } finally {
      setDownloading(null);
    }
  };

  const canDownload = (item: ConversationExport) => {
    const expiresAt = parseDate(item.expiresAt);
    return item.status === 'done' && (expiresAt === null || expiresAt.getTime() > now);
  };

  const rows = exports.data?.exports ?? [];
  const columns: TableColumn<ConversationExport>[] = [
    {
      header: t('settings.exports.range'),
      sx: { whiteSpace: { sm: 'nowrap' }, fontWeight: 600 },
      cell: rangeOf,
    },
    {
      header: t('settings.exports.format'),
      cell: (item) => (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <span>{t(`settings.exports.formats.${item.format}`)}</span>
          {item.includeMedia && (
            <Chip size="small" variant="outlined" label={t('settings.exports.withMedia')} />
          )}
        </Stack>
      ),
    },
    { header: t('settings.exports.state'), cell: (item) => <ExportState item={item} /> },
    {
      header: t('settings.exports.requested'),
      cell: (item) => (
        <Box>
          <Typography variant="body2">{item.createdBy?.name ?? '—'}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(item.createdAt)}
          </Typography>
        </Box>
      ),
    },
    actionsColumn(
      t('settings.actions'),
      (item) => {
        const range = rangeOf(item);
        const action = (label: string) => ({ title: label, label: `${label} ${range}` });
        return (
          <>
            {canDownload(item) && (
              <RowAction
                {...action(t('settings.exports.download'))}
                icon={<DownloadIcon fontSize="small" />}
                disabled={downloading === item.id}
                onClick={() => void download(item)}
              />
            )}
            <RowAction
              {...action(t('settings.delete'))}
              icon={<DeleteIcon fontSize="small" />}
              onClick={() => confirmDelete.ask(item)}
            />
          </>
        );
      },
      96,
    ),
  ];

  return (
    <Stack spacing={2}>
      <Stack spacing={1}>
        <Typography variant="body2" color="text.secondary">
          {t('settings.exports.intro')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('settings.exports.background')}
        </Typography>
      </Stack>
      {rows.length > 0 && <AdminToolbar addLabel={t('settings.exports.add')} onAdd={openDialog} />}
      {exports.isError && <Alert severity="error">{errorText(exports.error)}</Alert>}
      {exports.isPending && <LoadingBox />}
      {exports.isSuccess && rows.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
          <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
            <Typography sx={{ fontWeight: 600 }}>{t('settings.exports.empty')}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 520 }}>
              {t('settings.exports.emptyHint')}
            </Typography>
            <Button variant="contained" startIcon={<AddIcon />} onClick={openDialog}>
              {t('settings.exports.add')}
            </Button>
          </Stack>
        </Paper>
      )}
      {rows.length > 0 && (
        <WebhookTable label={t('settings.tabs.exports')} columns={columns} rows={rows} />
      )}
      <DialogFrame open={dialog.open} onClose={closeDialog} sessionKey={dialog.session}>
        <ExportForm />
      </DialogFrame>
      {confirmDelete.dialog}
    </Stack>
  );
};
