import { Stack } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useDialogSave } from '../../../components/dialog-save';
import { ADMIN_FORM_SUBMIT_DELAY_MS } from '../../../lib/form-delay';
import { FormText } from '../../../components/form-text';
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

  return (
    <DialogForm
      title={t(help ? 'settings.helps.editTitle' : 'settings.helps.addTitle')}
      {...save}
      submitLabel={t('common.save')}
    >
      <Stack spacing={2}>
        <FormText form={form} name="title" label={t('settings.helps.title')} autoFocus />
        <FormText
          form={form}
          name="video"
          label={t('settings.helps.video')}
          hint={t('settings.helps.videoHint')}
        />
        <FormText
          form={form}
          name="description"
          label={t('settings.helps.description')}
          multiline
          minRows={3}
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
