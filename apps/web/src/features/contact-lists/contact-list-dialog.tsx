import { TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { contactListSchema, type ContactListInput, type ContactListView } from '@atendi/shared';
import { useDialogSave } from '../../components/dialog-save';
import { registerMui } from '../../lib/forms';
import { fieldErrorKey, ruleErrors } from './contact-list-forms';
import {
  applyContactListEventToCache,
  createContactList,
  updateContactList,
} from './contact-lists.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

type ContactListFormValues = z.input<typeof contactListSchema>;

const ContactListForm = ({ contactList }: { contactList: ContactListView | null }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<ContactListFormValues, unknown, ContactListInput>({
    resolver: zodResolver(contactListSchema),
    defaultValues: { name: contactList?.name ?? '' },
  });
  const { register, watch } = form;

  const save = useDialogSave(form, {
    save: async (values) => {
      const saved = contactList
        ? await updateContactList(contactList.id, values)
        : await createContactList(values);
      applyContactListEventToCache(queryClient, {
        action: contactList ? 'update' : 'create',
        record: saved,
      });
    },
    savedText: t('contactLists.saved'),
    fields: ruleErrors(['name']),
  });

  const nameError = form.formState.errors.name;
  // Read on every keystroke, so the text follows what the field holds.
  const name = watch('name');

  return (
    <DialogForm
      title={contactList ? t('contactLists.dialog.editTitle') : t('contactLists.dialog.addTitle')}
      {...save}
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
    <ContactListForm contactList={contactList} />
  </DialogFrame>
);
