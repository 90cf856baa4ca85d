import { Button, DialogContentText } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DialogBody, DialogFrame, useDialogBusy, useDialogClose } from './dialog-frame';

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
}) => (
  <DialogFrame
    open={open}
    onClose={onClose}
    maxWidth="xs"
    fullScreenOnPhone={false}
    onExited={onExited}
  >
    <ConfirmBody
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      isDestructive={isDestructive}
      isBusy={isBusy}
      onConfirm={onConfirm}
    />
  </DialogFrame>
);

const ConfirmBody = ({
  title,
  message,
  confirmLabel,
  isDestructive,
  isBusy,
  onConfirm,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  isDestructive: boolean;
  isBusy: boolean;
  onConfirm: () => void;
}) => {
  const { t } = useTranslation();
  const close = useDialogClose();
  useDialogBusy(isBusy);
  return (
    <DialogBody
      title={title}
      footer={
        <>
          <Button onClick={close} disabled={isBusy}>
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
        </>
      }
    >
      <DialogContentText sx={{ overflowWrap: 'anywhere' }}>{message}</DialogContentText>
    </DialogBody>
  );
};
