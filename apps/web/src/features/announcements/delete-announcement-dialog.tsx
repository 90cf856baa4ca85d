import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useTranslation } from 'react-i18next';

export const DeleteAnnouncementDialog = ({
  open,
  title,
  isDeleting,
  onCancel,
  onConfirm,
  onExited,
}: {
  open: boolean;
  title: string;
  isDeleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  onExited: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      maxWidth="xs"
      fullWidth
      aria-labelledby="delete-announcement-title"
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle id="delete-announcement-title">{t('announcements.delete.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
          {t('announcements.delete.text', { title })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={isDeleting}>
          {t('announcements.delete.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
