import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SheetField } from '@atendi/shared';
import { ApiError } from '../api/http-client';
import { errorText, toastError } from '../api/toasts';
import { isContactSheetFile, readContactSheet, type SheetRow } from '../lib/contact-sheet';
import { downloadSampleSheet } from '../lib/sample-sheet';
import { DialogFrame, FormButtons } from './dialog-frame';

// A row the server did not import: its sheet row, what it said, and why (the API's code; the field
// for ERR_VALIDATION). Both imports' answers have this shape.
type RefusedRow = {
  row: number;
  name: string;
  number: string;
  error: string;
  field?: SheetField;
  message: string;
};

export type ImportResult = {
  imported: number;
  refused: RefusedRow[];
  // What else the import has to say (e.g. how many contacts the list has now).
  note?: string;
};

// The share of the work done, 0 to 1, or null while the server works on what it got.
type OnProgress = (share: number | null) => void;

// A source other than a file (the phone's address book): a button on the first step.
type OtherSource = {
  label: string;
  help: string;
  icon: ReactNode;
  confirm: string;
  run: () => Promise<ImportResult>;
};

type Source = { kind: 'file'; file: File; rows: SheetRow[]; filled: number } | { kind: 'other' };

type Step =
  | { name: 'choose'; refusal: string }
  | { name: 'confirm'; source: Source }
  | { name: 'importing'; share: number | null }
  | { name: 'done'; result: ImportResult }
  | { name: 'failed'; message: string };

const DUPLICATES = new Set(['ERR_DUPLICATED_CONTACT', 'ERR_DUPLICATED_LIST_ITEM']);
// A long sheet can refuse thousands of rows; the dialog lists the first ones.
const SHOWN_ROWS = 500;
const MEGABYTE = 1024 * 1024;
// What the file picker offers: an .xlsx or a CSV; an .xls too, so that its refusal can say what to
// do with it.
const ACCEPT = [
  '.xlsx',
  '.csv',
  '.xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/csv',
].join(',');

// SPEC §8: a refused row in the reader's language: a duplicate, what WhatsApp said of the number,
// or the field and what its rule asks.
const reasonOf = (entry: RefusedRow, t: TFunction, numberRule: string) => {
  if (DUPLICATES.has(entry.error)) return t('importDialog.duplicate');
  if (entry.error !== 'ERR_VALIDATION') return t(`errors.${entry.error}`, entry.message);
  if (!entry.field) return entry.message;
  const field = t(`importDialog.columns.${entry.field}`);
  const rule =
    entry.field === 'email'
      ? t('validation.email')
      : entry.field === 'name'
        ? t('validation.nameLength')
        : entry.number.trim()
          ? t(numberRule)
          : t('validation.required');
  // "Correo electrónico inválido" names its field already.
  return rule.toLowerCase().startsWith(field.toLowerCase())
    ? rule
    : t('importDialog.fieldProblem', { field, rule });
};

const RefusedRows = ({ rows, numberRule }: { rows: RefusedRow[]; numberRule: string }) => {
  const { t } = useTranslation();
  const shown = rows.slice(0, SHOWN_ROWS);
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">
        {t('importDialog.refusedTitle', { count: rows.length })}
      </Typography>
      <TableContainer sx={{ maxHeight: 300 }}>
        <Table size="small" stickyHeader aria-label={t('importDialog.refusedTable')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('importDialog.columns.row')}</TableCell>
              <TableCell>{t('importDialog.columns.name')}</TableCell>
              <TableCell>{t('importDialog.columns.number')}</TableCell>
              <TableCell>{t('importDialog.columns.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((entry) => (
              <TableRow key={`${entry.row}-${entry.error}`}>
                <TableCell>{entry.row}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.name}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{entry.number}</TableCell>
                <TableCell>{reasonOf(entry, t, numberRule)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length > shown.length && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('importDialog.refusedShown', { shown: shown.length, count: rows.length })}
        </Typography>
      )}
    </Stack>
  );
};

const Summary = ({ result, numberRule }: { result: ImportResult; numberRule: string }) => {
  const { t } = useTranslation();
  const skipped = result.refused.filter((entry) => DUPLICATES.has(entry.error)).length;
  const failed = result.refused.length - skipped;
  return (
    <Stack spacing={2}>
      <Alert severity={result.refused.length ? 'warning' : 'success'}>
        <Typography variant="body2">
          {t('importDialog.imported', { count: result.imported })}
        </Typography>
        {skipped > 0 && (
          <Typography variant="body2">{t('importDialog.skipped', { count: skipped })}</Typography>
        )}
        {failed > 0 && (
          <Typography variant="body2">{t('importDialog.failed', { count: failed })}</Typography>
        )}
      </Alert>
      {result.note && <Typography variant="body2">{result.note}</Typography>}
      {result.refused.length > 0 && <RefusedRows rows={result.refused} numberRule={numberRule} />}
    </Stack>
  );
};

// The one import of the app (contacts, a contact list's contacts): a contacts spreadsheet (.xlsx,
// first sheet; or a CSV) with a header row, chosen with a button in the app's language, checked and
// counted in the browser, an import the user confirms after seeing the file's name and how many
// rows it has, a progress bar while it runs, and at the end how many came in, how many were skipped
// as duplicates and failed, each refused row with its reason. The same problem reads the same in
// either import, whether the browser or the server finds it. The dialog stays open while importing.
export const ImportDialog = ({
  open,
  onClose,
  title,
  confirm,
  numberRule,
  maxBytes,
  maxRows,
  importSheet,
  otherSource,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  // What confirming does ("Se importarán a la lista Clientes. ¿Continuar?").
  confirm: string;
  // The i18n key of what a valid number looks like in this import.
  numberRule: string;
  maxBytes?: number;
  maxRows?: number;
  importSheet: (
    sheet: { file: File; rows: SheetRow[] },
    onProgress: OnProgress,
  ) => Promise<ImportResult>;
  otherSource?: OtherSource;
}) => {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>({ name: 'choose', refusal: '' });
  const busy = step.name === 'importing';
  const count = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  // Rounded up, so a file over the limit never reads as the limit itself.
  const megabytes = (bytes: number) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
      Math.ceil((bytes / MEGABYTE) * 10) / 10,
    );

  const tooLarge = (file: File) =>
    t('importDialog.tooLarge', {
      file: file.name,
      size: megabytes(file.size),
      max: megabytes(maxBytes ?? 0),
    });

  // A refusal of the whole file, found here or by the server, in the same words.
  const refusalOf = (error: unknown, file?: File) => {
    const name = file?.name ?? '';
    if (!(error instanceof ApiError) || !file) return errorText(error);
    if (error.code === 'ERR_UPLOAD_TYPE_NOT_ALLOWED')
      return t('importDialog.wrongType', { file: name });
    if (error.code === 'ERR_UPLOAD_TOO_LARGE' && maxBytes) return tooLarge(file);
    if (error.code === 'ERR_SPREADSHEET_TOO_LARGE' && maxRows)
      return t('importDialog.tooBigToRead', { file: name, max: count(maxRows) });
    if (error.code === 'ERR_VALIDATION' && error.fields?.file)
      return t('importDialog.noNumberColumn', { file: name });
    return errorText(error);
  };

  const close = () => {
    if (busy) return;
    setStep({ name: 'choose', refusal: '' });
    onClose();
  };

  const refuse = (refusal: string) => setStep({ name: 'choose', refusal });

  const choose = async (file: File) => {
    if (!isContactSheetFile(file)) return refuse(t('importDialog.wrongType', { file: file.name }));
    if (maxBytes && file.size > maxBytes) return refuse(tooLarge(file));
    let sheet: Awaited<ReturnType<typeof readContactSheet>>;
    try {
      sheet = await readContactSheet(file);
    } catch {
      return refuse(t('importDialog.unreadable', { file: file.name }));
    }
    if (!sheet.hasNumberColumn)
      return refuse(t('importDialog.noNumberColumn', { file: file.name }));
    if (sheet.filled === 0) return refuse(t('importDialog.empty', { file: file.name }));
    if (maxRows && sheet.filled > maxRows)
      return refuse(
        t('importDialog.tooManyRows', {
          file: file.name,
          count: sheet.filled,
          rows: count(sheet.filled),
          max: count(maxRows),
        }),
      );
    setStep({ name: 'confirm', source: { kind: 'file', file, ...sheet } });
  };

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (step.name !== 'confirm') return;
    const { source } = step;
    setStep({ name: 'importing', share: source.kind === 'file' ? 0 : null });
    try {
      const result =
        source.kind === 'file'
          ? await importSheet({ file: source.file, rows: source.rows }, (share) =>
              setStep((current) =>
                current.name === 'importing'
                  ? { ...current, share: share === null ? null : Math.min(1, share) }
                  : current,
              ),
            )
          : await otherSource!.run();
      setStep({ name: 'done', result });
    } catch (error) {
      setStep({
        name: 'failed',
        message: refusalOf(error, source.kind === 'file' ? source.file : undefined),
      });
    }
  };

  const chooseFile = () => {
    setStep({ name: 'choose', refusal: '' });
    input.current?.click();
  };

  const download = () =>
    downloadSampleSheet().catch((error: unknown) => {
      toastError(error);
    });

  const percent = step.name === 'importing' && step.share !== null ? step.share * 100 : null;

  return (
    <DialogFrame open={open} onClose={close}>
      <Box component="form" noValidate onSubmit={(event) => void start(event)}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent dividers>
          {step.name === 'choose' && (
            <Stack spacing={2}>
              <Typography variant="body2">{t('importDialog.help')}</Typography>
              <Typography variant="body2">{t('importDialog.csvHelp')}</Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {maxRows && maxBytes
                  ? t('importDialog.limits', { rows: count(maxRows), size: megabytes(maxBytes) })
                  : t('importDialog.rowByRow')}
              </Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                <Button variant="contained" startIcon={<UploadFileIcon />} onClick={chooseFile}>
                  {t('importDialog.choose')}
                </Button>
                <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download}>
                  {t('importDialog.downloadSample')}
                </Button>
              </Stack>
              {otherSource && (
                <>
                  <Typography variant="body2">{otherSource.help}</Typography>
                  <Box>
                    <Button
                      variant="outlined"
                      startIcon={otherSource.icon}
                      onClick={() => setStep({ name: 'confirm', source: { kind: 'other' } })}
                    >
                      {otherSource.label}
                    </Button>
                  </Box>
                </>
              )}
              {step.refusal && <Alert severity="error">{step.refusal}</Alert>}
            </Stack>
          )}
          {step.name === 'confirm' && (
            <Stack spacing={1}>
              {step.source.kind === 'file' && (
                <Typography variant="body1" sx={{ overflowWrap: 'anywhere' }}>
                  {t('importDialog.found', {
                    file: step.source.file.name,
                    count: step.source.filled,
                    rows: count(step.source.filled),
                  })}
                </Typography>
              )}
              <Typography variant="body1">
                {step.source.kind === 'file' ? confirm : otherSource?.confirm}
              </Typography>
            </Stack>
          )}
          {step.name === 'importing' && (
            <Stack spacing={1}>
              <Typography variant="body2">
                {percent === null
                  ? t('importDialog.working')
                  : t('importDialog.progress', { percent: Math.round(percent) })}
              </Typography>
              <LinearProgress
                variant={percent === null ? 'indeterminate' : 'determinate'}
                value={percent ?? undefined}
                aria-label={t('importDialog.progressLabel')}
              />
            </Stack>
          )}
          {step.name === 'done' && <Summary result={step.result} numberRule={numberRule} />}
          {step.name === 'failed' && <Alert severity="error">{step.message}</Alert>}
          {/* Hidden: the native input's "Choose File" speaks the browser's language. */}
          <input
            ref={input}
            type="file"
            accept={ACCEPT}
            hidden
            data-testid="import-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void choose(file);
            }}
          />
        </DialogContent>
        {step.name === 'confirm' ? (
          <DialogActions>
            <FormButtons
              onCancel={close}
              submitLabel={t('importDialog.start')}
              isSubmitting={false}
            />
          </DialogActions>
        ) : (
          <DialogActions>
            {step.name === 'failed' && (
              <Button onClick={chooseFile}>{t('importDialog.chooseAnother')}</Button>
            )}
            <Button onClick={close} disabled={busy}>
              {t('importDialog.close')}
            </Button>
          </DialogActions>
        )}
      </Box>
    </DialogFrame>
  );
};
