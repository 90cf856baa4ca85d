import { Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { usersContract, type UserUpdateInput } from '@atendi/shared';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../api/http-client';
import { updateSessionUser, useCurrentSession } from '../../api/session';
import { requiredEmail } from '../../lib/form-rules';
import { registerMui, useFieldError } from '../../lib/forms';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

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

const ProfileForm = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: { name: user.name, email: user.email, password: '' },
  });
  const save = useMutation({
    mutationFn: (values: Pick<UserUpdateInput, 'name' | 'email' | 'password'>) =>
      call(usersContract.updateUser, { params: { id: user.id }, body: values }),
    onSuccess: (_data, values) => {
      updateSessionUser({ name: values.name, email: values.email });
      toast.success(t('profile.saved'));
      onClose();
    },
  });

  const fieldError = useFieldError(errors);

  return (
    <DialogForm
      title={t('profile.title')}
      onSubmit={handleSubmit((values) => save.mutate(values))}
      isSubmitting={save.isPending}
      submitLabel={t('common.save')}
    >
      <Stack spacing={2}>
        <TextField
          {...registerMui(register, 'name')}
          label={t('profile.name')}
          autoComplete="name"
          fullWidth
          {...fieldError('name')}
        />
        <TextField
          {...registerMui(register, 'email')}
          type="email"
          label={t('profile.email')}
          autoComplete="email"
          fullWidth
          {...fieldError('email')}
        />
        <TextField
          {...registerMui(register, 'password')}
          type="password"
          label={t('profile.password')}
          autoComplete="new-password"
          fullWidth
          {...fieldError('password')}
          helperText={
            errors.password?.message ? t(errors.password.message) : t('profile.passwordHint')
          }
        />
      </Stack>
    </DialogForm>
  );
};

export const ProfileDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <ProfileForm onClose={onClose} />}
  </DialogFrame>
);
