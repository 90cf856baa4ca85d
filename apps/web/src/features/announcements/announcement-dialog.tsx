import { useState } from 'react';
import { MenuItem, Stack } from '@mui/material';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useDialogSave } from '../../components/dialog-save';
import { SelectField } from '../../components/select-field';
import { FormText } from '../../components/form-text';
import { AttachmentField, fileExtension } from '../../components/attachment-field';
import {
  ALLOWED_IMAGE_EXTENSIONS,
  MAX_IMAGE_BYTES,
  createAnnouncement,
  removeAnnouncementMedia,
  updateAnnouncement,
  uploadAnnouncementMedia,
  type Announcement,
} from './announcements.api';
import { PriorityDot, priorities, toPriority, usePriorityLabel } from './priority';
import { SwitchField } from '../../components/switch-field';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

// SPEC §5 Announcement: title and text required. Messages are i18n keys.
const announcementFormSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(200, 'announcements.validation.titleLength'),
  text: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(10000, 'announcements.validation.textLength'),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  status: z.boolean(),
});
type AnnouncementFormValues = z.infer<typeof announcementFormSchema>;

// SPEC §5: only .png, .jpg and .jpeg images; the server also refuses more than 5 MB.
const imageFileError = (file: File) => {
  if (!(ALLOWED_IMAGE_EXTENSIONS as readonly string[]).includes(fileExtension(file.name))) {
    return 'announcements.validation.imageType';
  }
  if (file.size > MAX_IMAGE_BYTES) return 'announcements.validation.imageSize';
  return null;
};

const AnnouncementForm = ({
  announcement,
  onSaved,
}: {
  announcement: Announcement | null;
  onSaved: (record: Announcement) => void;
}) => {
  const { t } = useTranslation();
  const priorityLabel = usePriorityLabel();
  // Once the record exists (even if its image then failed), saving again updates it.
  const [saved, setSaved] = useState<Announcement | null>(announcement);
  const [file, setFile] = useState<File | null>(null);
  const [isMediaRemoved, setIsMediaRemoved] = useState(false);
  const fileError = file ? imageFileError(file) : null;

  const form = useForm<AnnouncementFormValues>({
    resolver: zodResolver(announcementFormSchema),
    defaultValues: {
      title: announcement?.title ?? '',
      text: announcement?.text ?? '',
      // SPEC §9: new announcements start with priority 3 and active.
      priority: announcement ? toPriority(announcement.priority) : 3,
      status: announcement?.status ?? true,
    },
  });
  const { control } = form;

  const removeAttachment = () => {
    if (file) setFile(null);
    else setIsMediaRemoved(true);
  };

  const save = useDialogSave(form, {
    save: async (values) => {
      let record = saved;
      try {
        record = record
          ? await updateAnnouncement(record.id, values)
          : await createAnnouncement(values);
        setSaved(record);
        // The image goes after the record is saved; a new file replaces any earlier one.
        if (file) record = await uploadAnnouncementMedia(record.id, file);
        else if (isMediaRemoved && record.mediaName)
          record = await removeAnnouncementMedia(record.id);
      } finally {
        // The page lists what was saved, even when the image then failed.
        if (record) {
          setSaved(record);
          onSaved(record);
        }
      }
    },
    savedText: t(announcement ? 'announcements.toasts.updated' : 'announcements.toasts.created'),
    isBlocked: () => fileError !== null,
  });
  const { isSubmitting } = save;

  const attachmentName = file?.name ?? (isMediaRemoved ? null : saved?.mediaName);

  return (
    <DialogForm
      title={t(announcement ? 'announcements.form.editTitle' : 'announcements.form.addTitle')}
      {...save}
      submitLabel={t('common.save')}
    >
      <Stack spacing={2}>
        <FormText
          form={form}
          name="title"
          label={t('announcements.form.title')}
          required
          autoFocus
        />
        <FormText
          form={form}
          name="text"
          label={t('announcements.form.text')}
          required
          multiline
          minRows={4}
          maxRows={12}
        />
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{
            alignItems: { sm: 'center' },
          }}
        >
          {/* The items' values are the priorities' numbers, so the field holds a number. */}
          <SelectField
            control={control}
            name="priority"
            label={t('announcements.form.priority')}
            fullWidth={false}
            sx={{ minWidth: 200 }}
          >
            {priorities.map((priority) => (
              <MenuItem key={priority} value={priority}>
                <Stack
                  direction="row"
                  spacing={1.5}
                  sx={{
                    alignItems: 'center',
                  }}
                >
                  <PriorityDot priority={priority} isDecorative />
                  <span>{priorityLabel(priority)}</span>
                </Stack>
              </MenuItem>
            ))}
          </SelectField>
          <SwitchField control={control} name="status" label={t('announcements.form.active')} />
        </Stack>
        <AttachmentField
          label={t('announcements.form.attachment')}
          chooseLabel={t('announcements.form.chooseImage')}
          removeLabel={t('announcements.form.removeImage')}
          accept={ALLOWED_IMAGE_EXTENSIONS.join(',')}
          fileName={attachmentName}
          error={fileError && t(fileError)}
          hint={t('announcements.form.imageHint')}
          icon={(color) => <ImageIcon fontSize="small" color={color} />}
          disabled={isSubmitting}
          testIdPrefix="announcement"
          onChosen={setFile}
          onRemove={removeAttachment}
        />
      </Stack>
    </DialogForm>
  );
};

// Adds or edits an announcement; a new sessionKey gives each opening a fresh form.
export const AnnouncementDialog = ({
  open,
  announcement,
  sessionKey,
  onClose,
  onSaved,
}: {
  open: boolean;
  announcement: Announcement | null;
  sessionKey: number;
  onClose: () => void;
  onSaved: (record: Announcement) => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
    <AnnouncementForm announcement={announcement} onSaved={onSaved} />
  </DialogFrame>
);
