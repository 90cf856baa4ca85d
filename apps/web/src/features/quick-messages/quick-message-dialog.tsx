import { useRef, useState, type ChangeEvent } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  IconButton,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_MEDIA_MAX_BYTES,
  messageMediaExtensions,
  type QuickMessageView,
} from '@atendi/shared';
import { toastError } from '../../api/toasts';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui } from '../../lib/forms';
import { quickMessageFormSchema, type QuickMessageFormValues } from './quick-message-form.schema';
import {
  applyQuickMessageEventToCache,
  createQuickMessage,
  removeQuickMessageMedia,
  updateQuickMessage,
  uploadQuickMessageMedia,
} from './quick-messages.api';
import { FormDialogActions } from '../../components/form-dialog-actions';

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
};

// The server's rule for a quick message's attachment (the chat's own file rule), said before sending.
const attachmentError = (file: File) => {
  if (!(messageMediaExtensions as readonly string[]).includes(extensionOf(file.name)))
    return 'errors.ERR_UPLOAD_TYPE_NOT_ALLOWED';
  if (file.size > MESSAGE_MEDIA_MAX_BYTES) return 'errors.ERR_UPLOAD_TOO_LARGE';
  return null;
};

const QuickMessageForm = ({
  record,
  managesCompanyWide,
  onClose,
}: {
  record: QuickMessageView | null;
  managesCompanyWide: boolean;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isEdit = record !== null;
  const fileInput = useRef<HTMLInputElement>(null);
  // Once the answer exists (even if its file then failed), saving again updates it.
  const [saved, setSaved] = useState<QuickMessageView | null>(record);
  const [file, setFile] = useState<File | null>(null);
  const [isMediaRemoved, setIsMediaRemoved] = useState(false);
  const fileError = file ? attachmentError(file) : null;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<QuickMessageFormValues>({
    resolver: zodResolver(quickMessageFormSchema),
    defaultValues: {
      shortcode: record?.shortcode ?? '',
      message: record?.message ?? '',
      geral: record?.geral ?? false,
    },
  });

  const keepSaved = (next: QuickMessageView, action: 'create' | 'update') => {
    setSaved(next);
    applyQuickMessageEventToCache(queryClient, { action, record: next });
  };

  // The file goes once the answer is saved; a new file replaces any earlier one.
  const saveAttachment = (current: QuickMessageView) => {
    if (file) return uploadQuickMessageMedia(current.id, file);
    if (isMediaRemoved && current.mediaName) return removeQuickMessageMedia(current.id);
    return null;
  };

  const onSubmit = async (values: QuickMessageFormValues) => {
    if (fileError) return;
    await waitBeforeSubmit();
    // Only admins may choose the scope; for others the API keeps (or defaults) it.
    const payload = {
      shortcode: values.shortcode,
      message: values.message,
      ...(managesCompanyWide ? { geral: values.geral } : {}),
    };
    try {
      const current = saved
        ? await updateQuickMessage(saved.id, payload)
        : await createQuickMessage(payload);
      keepSaved(current, saved ? 'update' : 'create');
      const withMedia = await saveAttachment(current);
      if (withMedia) keepSaved(withMedia, 'update');
      toast.success(t('quickMessages.saved'));
      onClose();
    } catch (error) {
      // The form stays open with what was chosen, for another try.
      toastError(error);
    }
  };

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    // Let the same file be chosen again after removing it.
    event.target.value = '';
    if (chosen) setFile(chosen);
  };

  const removeAttachment = () => {
    if (file) setFile(null);
    else setIsMediaRemoved(true);
  };

  const attachmentName = file?.name ?? (isMediaRemoved ? null : saved?.mediaName);

  const fieldError = (name: 'shortcode' | 'message') => {
    const message = errors[name]?.message;
    return { error: Boolean(message), helperText: message ? t(message) : undefined };
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <DialogTitle>
        {isEdit ? t('quickMessages.dialog.editTitle') : t('quickMessages.dialog.addTitle')}
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            {...registerMui(register, 'shortcode')}
            label={t('quickMessages.dialog.shortcode')}
            autoComplete="off"
            autoFocus
            fullWidth
            {...fieldError('shortcode')}
          />
          <TextField
            {...registerMui(register, 'message')}
            label={t('quickMessages.dialog.message')}
            multiline
            minRows={5}
            fullWidth
            {...fieldError('message')}
          />
          {managesCompanyWide && (
            <Box>
              <Controller
                name="geral"
                control={control}
                render={({ field: { value, onChange, ref } }) => (
                  <FormControlLabel
                    control={
                      <Switch
                        checked={value}
                        slotProps={{ input: { ref } }}
                        onChange={(event) => onChange(event.target.checked)}
                      />
                    }
                    label={t('quickMessages.dialog.geral')}
                  />
                )}
              />
              <FormHelperText sx={{ mt: 0 }}>{t('quickMessages.dialog.geralHint')}</FormHelperText>
            </Box>
          )}
          <Box>
            <Typography variant="subtitle2" gutterBottom>
              {t('quickMessages.dialog.attachment')}
            </Typography>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept={messageMediaExtensions.join(',')}
              data-testid="quick-message-file-input"
              aria-label={t('quickMessages.dialog.chooseFile')}
              onChange={onFileChosen}
            />
            {attachmentName ? (
              <Stack
                direction="row"
                spacing={1}
                sx={{
                  alignItems: 'center',
                  border: 1,
                  borderColor: fileError ? 'error.main' : 'divider',
                  borderRadius: 1,
                  px: 1.5,
                  py: 0.5,
                }}
              >
                <InsertDriveFileOutlinedIcon
                  fontSize="small"
                  color={fileError ? 'error' : 'action'}
                />
                <Typography
                  variant="body2"
                  noWrap
                  title={attachmentName}
                  sx={{ flexGrow: 1, minWidth: 0 }}
                  data-testid="quick-message-attachment-name"
                >
                  {attachmentName}
                </Typography>
                <Tooltip title={t('quickMessages.dialog.removeFile')}>
                  <IconButton
                    size="small"
                    aria-label={t('quickMessages.dialog.removeFile')}
                    disabled={isSubmitting}
                    onClick={removeAttachment}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
            ) : (
              <Button
                variant="outlined"
                startIcon={<AttachFileIcon />}
                disabled={isSubmitting}
                onClick={() => fileInput.current?.click()}
              >
                {t('quickMessages.dialog.chooseFile')}
              </Button>
            )}
            {fileError && <FormHelperText error>{t(fileError)}</FormHelperText>}
          </Box>
        </Stack>
      </DialogContent>
      <FormDialogActions
        onCancel={onClose}
        cancelLabel={t('common.cancel')}
        submitLabel={isEdit ? t('common.save') : t('quickMessages.dialog.add')}
        isSubmitting={isSubmitting}
      />
    </form>
  );
};

// Adds an answer, or edits the row as listed. A new sessionKey gives each opening a fresh form;
// the content stays while the dialog fades out.
export const QuickMessageDialog = ({
  open,
  record,
  sessionKey,
  managesCompanyWide,
  onClose,
}: {
  open: boolean;
  record: QuickMessageView | null;
  sessionKey: number;
  managesCompanyWide: boolean;
  onClose: () => void;
}) => (
  <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" scroll="paper">
    <QuickMessageForm
      key={sessionKey}
      record={record}
      managesCompanyWide={managesCompanyWide}
      onClose={onClose}
    />
  </Dialog>
);
