import { useRef, useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
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
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  CONTACT_LIST_UPLOAD_MAX_BYTES,
  CONTACT_LIST_UPLOAD_MAX_ROWS,
  type ContactListUploadError,
  type ContactListUploadResult,
  type ContactListView,
} from '@atendi/shared';
import { ApiError, NETWORK_ERROR } from '../../api/http-client';
import { errorText, toastError } from '../../api/toasts';
import { fieldRuleKey } from './contact-list-forms';
import { uploadContactListSheet } from './contact-list-upload';
import { contactListItemsKeys, contactListsKeys } from './contact-lists.api';
import { downloadSampleSheet } from './sample-sheet';

type Step =
  | { name: 'choose'; refusal: string }
  | { name: 'confirm'; file: File }
  // `sent`: the share of the file sent, 0 to 1; at 1 the server is judging the rows.
  | { name: 'sending'; file: File; sent: number }
  | { name: 'done'; result: ContactListUploadResult }
  | { name: 'failed'; message: string };

// A long sheet can refuse thousands of rows; the dialog lists the first ones.
const SHOWN_ERRORS = 500;
const MEGABYTE = 1024 * 1024;

const extensionOf = (name: string) => /\.[^.]*$/.exec(name.toLowerCase())?.[0] ?? '';

// SPEC §8: a refused row in the reader's language: a duplicate, or the field and what its rule asks.
const rowErrorText = (entry: ContactListUploadError, t: TFunction) => {
  if (entry.error === 'ERR_DUPLICATED_LIST_ITEM') return t('contactListItems.import.duplicated');
  if (entry.field) {
    const field = t(`contactListItems.columns.${entry.field}`);
    const rule = t(
      entry.field === 'number' && !entry.number.trim()
        ? 'validation.required'
        : fieldRuleKey(entry.field),
    );
    // "Correo electrónico inválido" names its field already.
    return rule.toLowerCase().startsWith(field.toLowerCase())
      ? rule
      : t('contactListItems.import.fieldProblem', { field, rule });
  }
  return entry.message;
};

// A refusal of the whole file. A bad sheet (400 ERR_VALIDATION about the file) says what the import
// needs; a sheet past a reading limit (rows, size, time) says how many rows it may have.
const requestErrorText = (error: unknown, t: TFunction, language: string) => {
  if (!(error instanceof ApiError)) return errorText(error);
  if (error.code === 'ERR_UPLOAD_TYPE_NOT_ALLOWED')
    return t('contactListItems.import.typeNotAllowed', { error: errorText(error) });
  if (error.code === 'ERR_UPLOAD_TOO_LARGE')
    return t('contactListItems.import.tooLargeAnswer', {
      error: errorText(error),
      max: CONTACT_LIST_UPLOAD_MAX_BYTES / MEGABYTE,
    });
  if (error.code === 'ERR_SPREADSHEET_TOO_LARGE')
    return t('contactListItems.import.tooBigToRead', {
      error: errorText(error),
      rows: new Intl.NumberFormat(language).format(CONTACT_LIST_UPLOAD_MAX_ROWS),
    });
  if (error.code === 'ERR_VALIDATION')
    return error.fields?.file ? t('contactListItems.import.unreadable') : error.message;
  return errorText(error);
};

const RowErrors = ({ errors }: { errors: ContactListUploadError[] }) => {
  const { t } = useTranslation();
  const shown = errors.slice(0, SHOWN_ERRORS);
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">
        {t('contactListItems.import.errorsTitle', { count: errors.length })}
      </Typography>
      <TableContainer sx={{ maxHeight: 300 }}>
        <Table size="small" stickyHeader aria-label={t('contactListItems.import.errorsTable')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('contactListItems.import.columns.row')}</TableCell>
              <TableCell>{t('contactListItems.import.columns.name')}</TableCell>
              <TableCell>{t('contactListItems.import.columns.number')}</TableCell>
              <TableCell>{t('contactListItems.import.columns.error')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((entry) => (
              <TableRow key={`${entry.row}-${entry.error}`}>
                <TableCell>{entry.row}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.name}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.number}</TableCell>
                <TableCell>{rowErrorText(entry, t)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {errors.length > shown.length && (
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('contactListItems.import.errorsShown', {
            shown: shown.length,
            count: errors.length,
          })}
        </Typography>
      )}
    </Stack>
  );
};

type DialogProps = {
  open: boolean;
  contactList: ContactListView;
  onClose: () => void;
};

const ImportDialog = ({ open, contactList, onClose }: DialogProps) => {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>({ name: 'choose', refusal: '' });
  const busy = step.name === 'sending';

  // Rounded up, so a file over the limit never reads as the limit itself.
  const megabytes = (bytes: number) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
      Math.ceil((bytes / MEGABYTE) * 10) / 10,
    );

  // The server reads only .xlsx and refuses an .xls or a larger file whole: say so before sending.
  const choose = (file: File) => {
    if (extensionOf(file.name) === '.xls')
      setStep({ name: 'choose', refusal: t('contactListItems.import.xls', { file: file.name }) });
    else if (file.size > CONTACT_LIST_UPLOAD_MAX_BYTES)
      setStep({
        name: 'choose',
        refusal: t('contactListItems.import.tooLarge', {
          file: file.name,
          size: megabytes(file.size),
          max: megabytes(CONTACT_LIST_UPLOAD_MAX_BYTES),
        }),
      });
    else setStep({ name: 'confirm', file });
  };

  // The table asks for the list's items again; the cached list takes the count just answered.
  const refreshItems = (contactsCount?: number) => {
    void queryClient.invalidateQueries({ queryKey: contactListItemsKeys.lists(contactList.id) });
    if (contactsCount !== undefined)
      queryClient.setQueryData<ContactListView>(contactListsKeys.detail(contactList.id), (list) =>
        list ? { ...list, contactsCount } : list,
      );
  };

  const upload = async (file: File) => {
    setStep({ name: 'sending', file, sent: 0 });
    try {
      const result = await uploadContactListSheet(contactList.id, file, (sent) =>
        setStep((current) =>
          current.name === 'sending' ? { ...current, sent: Math.min(1, sent) } : current,
        ),
      );
      refreshItems(result.contactsCount);
      setStep({ name: 'done', result });
    } catch (error) {
      // A connection lost after the server stored the rows: the table shows what it has.
      if (error instanceof ApiError && error.code === NETWORK_ERROR) refreshItems();
      setStep({ name: 'failed', message: requestErrorText(error, t, i18n.language) });
    }
  };

  const download = () =>
    downloadSampleSheet().catch((error: unknown) => {
      toastError(error);
    });

  const chooseAgain = () => {
    setStep({ name: 'choose', refusal: '' });
    input.current?.click();
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t('contactListItems.import.title')}</DialogTitle>
      <DialogContent dividers>
        {step.name === 'choose' && (
          <Stack spacing={2}>
            <Typography variant="body2">{t('contactListItems.import.help')}</Typography>
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
              }}
            >
              {t('contactListItems.import.limits', {
                rows: new Intl.NumberFormat(i18n.language).format(CONTACT_LIST_UPLOAD_MAX_ROWS),
                size: megabytes(CONTACT_LIST_UPLOAD_MAX_BYTES),
              })}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Button
                variant="contained"
                startIcon={<UploadFileIcon />}
                onClick={() => input.current?.click()}
              >
                {t('contactListItems.import.choose')}
              </Button>
              <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download}>
                {t('contactListItems.import.downloadSample')}
              </Button>
            </Stack>
            {step.refusal && <Alert severity="error">{step.refusal}</Alert>}
          </Stack>
        )}
        {step.name === 'confirm' && (
          <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
            {t('contactListItems.import.confirm', {
              file: step.file.name,
              list: contactList.name,
            })}
          </DialogContentText>
        )}
        {step.name === 'sending' && step.sent < 1 && (
          <Stack spacing={1}>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {t('contactListItems.import.uploading', {
                file: step.file.name,
                percent: Math.round(step.sent * 100),
              })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={Math.round(step.sent * 100)}
              aria-label={t('contactListItems.import.uploadProgress')}
            />
          </Stack>
        )}
        {step.name === 'sending' && step.sent >= 1 && (
          <Stack spacing={1}>
            <Typography variant="body2">{t('contactListItems.import.processing')}</Typography>
            <LinearProgress aria-label={t('contactListItems.import.processing')} />
          </Stack>
        )}
        {step.name === 'done' && (
          <Stack spacing={2}>
            <Alert severity={step.result.errors.length ? 'warning' : 'success'}>
              {t('contactListItems.import.created', { count: step.result.created })}
            </Alert>
            <Typography variant="body2">
              {t('contactListItems.import.listCount', { count: step.result.contactsCount })}
              {step.result.created > 0 && ` ${t('contactListItems.import.checking')}`}
            </Typography>
            {step.result.errors.length > 0 && <RowErrors errors={step.result.errors} />}
          </Stack>
        )}
        {step.name === 'failed' && <Alert severity="error">{step.message}</Alert>}
        <input
          ref={input}
          type="file"
          accept=".xlsx,.xls"
          hidden
          data-testid="contact-list-import-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) choose(file);
          }}
        />
      </DialogContent>
      <DialogActions>
        {step.name === 'confirm' && (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button variant="contained" onClick={() => void upload(step.file)}>
              {t('contactListItems.import.start')}
            </Button>
          </>
        )}
        {step.name === 'failed' && (
          <Button onClick={chooseAgain}>{t('contactListItems.import.chooseAnother')}</Button>
        )}
        {step.name !== 'confirm' && (
          <Button onClick={onClose} disabled={busy}>
            {t('contactListItems.import.close')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};

// SPEC §2 Contact list items, import: an .xlsx into the list (first sheet; name, number and email
// columns). The file is checked, the import confirmed, then the upload shows its progress, the
// server's processing, and at the end how many contacts came in and every row it refused. While the
// file is being sent the dialog stays open. `sessionKey` gives every opening a fresh start.
export const ContactListImportDialog = ({
  sessionKey,
  ...props
}: DialogProps & { sessionKey: number }) => <ImportDialog key={sessionKey} {...props} />;
