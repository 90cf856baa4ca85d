import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useTranslation } from 'react-i18next';

// Asks before an action; the caller runs it on confirm and closes the dialog once it settled.
export const ConfirmDialog = ({
  open,
  title,
  message,
  confirmLabel,
  isDestructive = false,
  isBusy = false,
  onConfirm,
  onClose,
  onExited,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  isDestructive?: boolean;
  // While the action runs the dialog can be neither confirmed again nor dismissed.
  isBusy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  // After the closing fade, for callers that keep the texts until then.
  onExited?: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={isBusy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      slotProps={onExited ? { transition: { onExited } } : undefined}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ overflowWrap: 'anywhere' }}>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isBusy}>
          {t('common.cancel')}
        </Button>
        <Button
          color={isDestructive ? 'error' : 'primary'}
          variant="contained"
          onClick={onConfirm}
          disabled={isBusy}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
