import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { QuickMessageView } from '@atendi/shared';
import { toastError } from '../../api/toasts';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui } from '../../lib/forms';
import { quickMessageFormSchema, type QuickMessageFormValues } from './quick-message-form.schema';
import {
  applyQuickMessageEventToCache,
  createQuickMessage,
  updateQuickMessage,
} from './quick-messages.api';

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

  const onSubmit = async (values: QuickMessageFormValues) => {
    await waitBeforeSubmit();
    // Only admins may choose the scope; for others the API keeps (or defaults) it.
    const payload = {
      shortcode: values.shortcode,
      message: values.message,
      ...(managesCompanyWide ? { geral: values.geral } : {}),
    };
    try {
      const saved = record
        ? await updateQuickMessage(record.id, payload)
        : await createQuickMessage(payload);
      applyQuickMessageEventToCache(queryClient, {
        action: record ? 'update' : 'create',
        record: saved,
      });
      toast.success(t('quickMessages.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  };

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
                        inputRef={ref}
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
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isSubmitting}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {isEdit ? t('common.save') : t('quickMessages.dialog.add')}
        </Button>
      </DialogActions>
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
