import { useState } from 'react';
import { Box, FormHelperText, Stack } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_MEDIA_MAX_BYTES,
  messageMediaExtensions,
  type QuickMessageView,
} from '@atendi/shared';
import { useDialogSave } from '../../components/dialog-save';
import { FormText } from '../../components/form-text';
import { AttachmentField, fileExtension } from '../../components/attachment-field';
import { quickMessageFormSchema, type QuickMessageFormValues } from './quick-message-form.schema';
import {
  applyQuickMessageEventToCache,
  createQuickMessage,
  removeQuickMessageMedia,
  updateQuickMessage,
  uploadQuickMessageMedia,
} from './quick-messages.api';
import { SwitchField } from '../../components/switch-field';
import { QueueSelect } from '../../components/queue-fields';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

// The server's rule for a quick message's attachment (the chat's own file rule), said before sending.
const attachmentError = (file: File) => {
  if (!(messageMediaExtensions as readonly string[]).includes(fileExtension(file.name)))
    return 'errors.ERR_UPLOAD_TYPE_NOT_ALLOWED';
  if (file.size > MESSAGE_MEDIA_MAX_BYTES) return 'errors.ERR_UPLOAD_TOO_LARGE';
  return null;
};

const QuickMessageForm = ({
  record,
  managesCompanyWide,
}: {
  record: QuickMessageView | null;
  managesCompanyWide: boolean;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isEdit = record !== null;
  // Once the answer exists (even if its file then failed), saving again updates it.
  const [saved, setSaved] = useState<QuickMessageView | null>(record);
  const [file, setFile] = useState<File | null>(null);
  const [isMediaRemoved, setIsMediaRemoved] = useState(false);
  const fileError = file ? attachmentError(file) : null;
  const form = useForm<QuickMessageFormValues>({
    resolver: zodResolver(quickMessageFormSchema),
    defaultValues: {
      shortcode: record?.shortcode ?? '',
      message: record?.message ?? '',
      geral: record?.geral ?? false,
      queueId: record?.queueId ? String(record.queueId) : '',
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

  const { control } = form;
  const isCompanyWide = form.watch('geral');

  // A failure leaves the form open with what was chosen, for another try.
  const save = useDialogSave(form, {
    save: async (values) => {
      // Only admins may choose the scope; for others the API keeps (or defaults) it.
      const payload = {
        shortcode: values.shortcode,
        message: values.message,
        ...(managesCompanyWide
          ? {
              geral: values.geral,
              queueId: values.geral || values.queueId === '' ? null : Number(values.queueId),
            }
          : {}),
      };
      const current = saved
        ? await updateQuickMessage(saved.id, payload)
        : await createQuickMessage(payload);
      keepSaved(current, saved ? 'update' : 'create');
      const withMedia = await saveAttachment(current);
      if (withMedia) keepSaved(withMedia, 'update');
    },
    savedText: t('quickMessages.saved'),
    isBlocked: () => fileError !== null,
  });

  const removeAttachment = () => {
    if (file) setFile(null);
    else setIsMediaRemoved(true);
  };

  const attachmentName = file?.name ?? (isMediaRemoved ? null : saved?.mediaName);

  return (
    <DialogForm
      title={isEdit ? t('quickMessages.dialog.editTitle') : t('quickMessages.dialog.addTitle')}
      {...save}
      submitLabel={isEdit ? t('common.save') : t('quickMessages.dialog.add')}
    >
      <Stack spacing={2}>
        <FormText
          form={form}
          name="shortcode"
          label={t('quickMessages.dialog.shortcode')}
          autoFocus
        />
        <FormText
          form={form}
          name="message"
          label={t('quickMessages.dialog.message')}
          multiline
          minRows={5}
        />
        {managesCompanyWide && (
          <Box>
            <SwitchField control={control} name="geral" label={t('quickMessages.dialog.geral')} />
            <FormHelperText sx={{ mt: 0 }}>{t('quickMessages.dialog.geralHint')}</FormHelperText>
          </Box>
        )}
        {managesCompanyWide && !isCompanyWide && (
          <QueueSelect
            control={control}
            name="queueId"
            label={t('quickMessages.dialog.queue')}
            noneLabel={t('quickMessages.dialog.noQueue')}
            helperText={t('quickMessages.dialog.queueHint')}
          />
        )}
        <AttachmentField
          label={t('quickMessages.dialog.attachment')}
          chooseLabel={t('quickMessages.dialog.chooseFile')}
          removeLabel={t('quickMessages.dialog.removeFile')}
          accept={messageMediaExtensions.join(',')}
          fileName={attachmentName}
          error={fileError && t(fileError)}
          disabled={save.isSubmitting}
          testIdPrefix="quick-message"
          onChosen={setFile}
          onRemove={removeAttachment}
        />
      </Stack>
    </DialogForm>
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
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
    <QuickMessageForm record={record} managesCompanyWide={managesCompanyWide} />
  </DialogFrame>
);
