import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useTranslation } from 'react-i18next';

// Asks before a delete; the caller closes it once the action settled.
export const ConfirmDialog = ({
  open,
  title,
  text,
  isBusy = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  isBusy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button color="error" variant="contained" disabled={isBusy} onClick={onConfirm}>
          {t('settings.confirmDelete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
