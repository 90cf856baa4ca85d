import { TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { contactListSchema, type ContactListInput, type ContactListView } from '@atendi/shared';
import { toastError } from '../../api/toasts';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui } from '../../lib/forms';
import { fieldErrorKey, showFieldErrors } from './contact-list-forms';
import {
  applyContactListEventToCache,
  createContactList,
  updateContactList,
} from './contact-lists.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

type ContactListFormValues = z.input<typeof contactListSchema>;

const ContactListForm = ({
  contactList,
  onClose,
}: {
  contactList: ContactListView | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ContactListFormValues, unknown, ContactListInput>({
    resolver: zodResolver(contactListSchema),
    defaultValues: { name: contactList?.name ?? '' },
  });

  const onSubmit = async (values: ContactListInput) => {
    await waitBeforeSubmit();
    try {
      const saved = contactList
        ? await updateContactList(contactList.id, values)
        : await createContactList(values);
      applyContactListEventToCache(queryClient, {
        action: contactList ? 'update' : 'create',
        record: saved,
      });
      toast.success(t('contactLists.saved'));
      onClose();
    } catch (error) {
      const shown = showFieldErrors(error, ['name'], (field, message) =>
        setError(field, { type: 'server', message }, { shouldFocus: true }),
      );
      if (!shown) toastError(error);
    }
  };

  const nameError = errors.name;
  // Read on every keystroke, so the text follows what the field holds.
  const name = watch('name');

  return (
    <DialogForm
      title={contactList ? t('contactLists.dialog.editTitle') : t('contactLists.dialog.addTitle')}
      onSubmit={handleSubmit(onSubmit)}
      isSubmitting={isSubmitting}
      submitLabel={contactList ? t('common.save') : t('contactLists.dialog.add')}
    >
      <TextField
        {...registerMui(register, 'name')}
        label={t('contactLists.dialog.name')}
        autoComplete="off"
        autoFocus
        fullWidth
        error={Boolean(nameError)}
        helperText={nameError ? t(fieldErrorKey('name', nameError, name)) : undefined}
      />
    </DialogForm>
  );
};

// The add/edit dialog of a list (SPEC §5: name 2 to 50); sessionKey gives every opening a fresh form.
export const ContactListDialog = ({
  open,
  contactList,
  sessionKey,
  onClose,
}: {
  open: boolean;
  contactList: ContactListView | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="xs">
    <ContactListForm contactList={contactList} onClose={onClose} />
  </DialogFrame>
);
