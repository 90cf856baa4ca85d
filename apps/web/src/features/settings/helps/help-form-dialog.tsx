import { Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useDialogSave } from '../../../components/dialog-save';
import { ADMIN_FORM_SUBMIT_DELAY_MS } from '../../../lib/form-delay';
import { registerMui, useFieldError } from '../../../lib/forms';
import { toastOperationError } from '../shared/admin-errors';
import { useSaveHelp, videoCodeOf, type Help } from './helps.api';
import { DialogForm, DialogFrame } from '../../../components/dialog-frame';

const helpFormSchema = z.object({
  title: z.string().trim().min(1, 'validation.required').max(200, 'settings.helps.titleLength'),
  video: z.string().trim().max(200, 'settings.helps.videoLength'),
  description: z.string().max(5000, 'settings.helps.descriptionLength'),
});
type HelpFormValues = z.infer<typeof helpFormSchema>;

const HelpForm = ({ help }: { help: Help | null }) => {
  const { t } = useTranslation();
  const saveHelp = useSaveHelp();
  const form = useForm<HelpFormValues>({
    resolver: zodResolver(helpFormSchema),
    defaultValues: {
      title: help?.title ?? '',
      video: help?.video ?? '',
      description: help?.description ?? '',
    },
  });

  const { register } = form;
  const save = useDialogSave(form, {
    save: (values) =>
      saveHelp.mutateAsync({
        ...values,
        ...(help ? { id: help.id } : {}),
        video: videoCodeOf(values.video),
      }),
    savedText: t('settings.helps.saved'),
    toastError: toastOperationError,
    delayMs: ADMIN_FORM_SUBMIT_DELAY_MS,
  });

  const fieldError = useFieldError(form.formState.errors);

  return (
    <DialogForm
      title={t(help ? 'settings.helps.editTitle' : 'settings.helps.addTitle')}
      {...save}
      submitLabel={t('common.save')}
    >
      <Stack spacing={2}>
        <TextField
          {...registerMui(register, 'title')}
          label={t('settings.helps.title')}
          autoFocus
          fullWidth
          {...fieldError('title')}
        />
        <TextField
          {...registerMui(register, 'video')}
          label={t('settings.helps.video')}
          fullWidth
          {...fieldError('video', t('settings.helps.videoHint'))}
        />
        <TextField
          {...registerMui(register, 'description')}
          label={t('settings.helps.description')}
          fullWidth
          multiline
          minRows={3}
          {...fieldError('description')}
        />
      </Stack>
    </DialogForm>
  );
};

export const HelpFormDialog = ({
  open,
  help,
  onClose,
}: {
  open: boolean;
  help: Help | null;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose}>
    {open && <HelpForm help={help} />}
  </DialogFrame>
);
