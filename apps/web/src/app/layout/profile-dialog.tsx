import { Stack } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { usersContract } from '@atendi/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../api/http-client';
import { updateSessionUser, useCurrentSession } from '../../api/session';
import { requiredEmail } from '../../lib/form-rules';
import { FormText, PasswordField } from '../../components/form-text';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';
import { useDialogSave } from '../../components/dialog-save';

// SPEC §5 User rules; a blank password leaves the current one unchanged.
const profileSchema = z.object({
  name: z.string().trim().min(2, 'validation.nameLength').max(50, 'validation.nameLength'),
  email: requiredEmail,
  password: z
    .string()
    .refine((value) => value === '' || (value.length >= 5 && value.length <= 50), {
      message: 'validation.passwordLength',
    }),
});
type ProfileValues = z.infer<typeof profileSchema>;

const ProfileForm = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const form = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: { name: user.name, email: user.email, password: '' },
  });
  const save = useDialogSave(form, {
    save: async (values) => {
      await call(usersContract.updateUser, { params: { id: user.id }, body: values });
      updateSessionUser({ name: values.name, email: values.email });
    },
    savedText: t('profile.saved'),
    codes: { ERR_EMAIL_ALREADY_EXISTS: 'email' },
  });

  return (
    <DialogForm title={t('profile.title')} {...save} submitLabel={t('common.save')}>
      <Stack spacing={2}>
        <FormText form={form} name="name" label={t('profile.name')} autoComplete="name" />
        <FormText
          form={form}
          name="email"
          type="email"
          label={t('profile.email')}
          autoComplete="email"
        />
        <PasswordField
          form={form}
          name="password"
          label={t('profile.password')}
          hint={t('profile.passwordHint')}
        />
      </Stack>
    </DialogForm>
  );
};

export const ProfileDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <ProfileForm />}
  </DialogFrame>
);
