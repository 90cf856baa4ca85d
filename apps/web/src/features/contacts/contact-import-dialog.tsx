import { useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useTranslation } from 'react-i18next';
import type { ContactUploadError, ContactUploadResult } from '@atendi/shared';
import { toastError } from '../../api/toasts';
import {
  importPhoneContacts,
  readContactSheet,
  uploadContacts,
  type ImportProgress,
} from './contacts.api';

type Step =
  | { name: 'choose' }
  | { name: 'importing'; progress: ImportProgress }
  | { name: 'done'; result: ContactUploadResult };

const ErrorBag = ({ errors }: { errors: ContactUploadError[] }) => {
  const { t } = useTranslation();
  const reason = (entry: ContactUploadError) =>
    entry.error === 'ERR_VALIDATION'
      ? t(`contacts.import.invalid.${entry.field ?? 'row'}`)
      : t(`errors.${entry.error}`);
  return (
    <List
      dense
      aria-label={t('contacts.import.errorsTitle')}
      sx={{ maxHeight: 260, overflow: 'auto' }}
    >
      {errors.map((entry) => (
        <ListItem key={entry.row} disableGutters>
          {/* SPEC §8: each refused row is listed as the contact's name and the error. */}
          <ListItemText
            primary={`${entry.name || entry.number || t('contacts.import.noName')}: ${reason(entry)}`}
            secondary={t('contacts.import.row', { row: entry.row })}
          />
        </ListItem>
      ))}
    </List>
  );
};

// SPEC §2 Modals: contact import. Reads the first sheet of an .xlsx in the browser and sends its rows;
// the bar follows the rows sent, and at the end every refused row is listed.
export const ContactImportDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>({ name: 'choose' });
  const [fileError, setFileError] = useState('');

  const close = () => {
    if (step.name === 'importing') return;
    setStep({ name: 'choose' });
    setFileError('');
    onClose();
  };

  const importFile = async (file: File) => {
    setFileError('');
    if (!file.name.toLowerCase().endsWith('.xlsx')) {
      setFileError(t('contacts.import.onlyXlsx'));
      return;
    }
    let rows: Awaited<ReturnType<typeof readContactSheet>>;
    try {
      rows = await readContactSheet(file);
    } catch {
      setFileError(t('contacts.import.unreadable'));
      return;
    }
    if (rows.length === 0) {
      setFileError(t('contacts.import.emptySheet'));
      return;
    }
    try {
      const result = await uploadContacts(rows, (progress) =>
        setStep({ name: 'importing', progress }),
      );
      setStep({ name: 'done', result });
    } catch (error) {
      toastError(error);
      setStep({ name: 'choose' });
    }
  };

  // POST /contacts/import: what the default connection's phone shared of its address book.
  const importPhone = async () => {
    setFileError('');
    setStep({ name: 'importing', progress: { done: 0, total: 0 } });
    try {
      setStep({ name: 'done', result: await importPhoneContacts() });
    } catch (error) {
      toastError(error);
      setStep({ name: 'choose' });
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth>
      <DialogTitle>{t('contacts.import.title')}</DialogTitle>
      <DialogContent dividers>
        {step.name === 'choose' && (
          <Stack spacing={2}>
            <Typography variant="body2">{t('contacts.import.help')}</Typography>
            <Box>
              <input
                ref={input}
                type="file"
                accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                hidden
                data-testid="contacts-import-file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) void importFile(file);
                }}
              />
              <Button
                variant="contained"
                startIcon={<UploadFileIcon />}
                onClick={() => input.current?.click()}
              >
                {t('contacts.import.choose')}
              </Button>
            </Box>
            <Typography variant="body2">{t('contacts.import.phoneHelp')}</Typography>
            <Box>
              <Button
                variant="outlined"
                startIcon={<PhoneAndroidIcon />}
                onClick={() => void importPhone()}
              >
                {t('contacts.import.fromPhone')}
              </Button>
            </Box>
            {fileError && <Alert severity="error">{fileError}</Alert>}
          </Stack>
        )}
        {step.name === 'importing' && (
          <Stack spacing={1}>
            <Typography variant="body2">
              {step.progress.total
                ? t('contacts.import.progress', step.progress)
                : t('contacts.import.working')}
            </Typography>
            <LinearProgress
              variant={step.progress.total ? 'determinate' : 'indeterminate'}
              aria-label={t('contacts.import.title')}
              value={step.progress.total ? (100 * step.progress.done) / step.progress.total : 0}
            />
          </Stack>
        )}
        {step.name === 'done' && (
          <Stack spacing={2}>
            <Alert severity={step.result.errorBag.length ? 'warning' : 'success'}>
              {t('contacts.import.summary', {
                added: t('contacts.import.added', { count: step.result.newContacts.length }),
                refused: t('contacts.import.refused', { count: step.result.errorBag.length }),
              })}
            </Alert>
            {step.result.errorBag.length > 0 && (
              <>
                <Typography variant="subtitle2">{t('contacts.import.errorsTitle')}</Typography>
                <ErrorBag errors={step.result.errorBag} />
              </>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={step.name === 'importing'}>
          {t('contacts.import.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
