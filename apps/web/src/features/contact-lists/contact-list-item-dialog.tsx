import { Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  contactListItemSchema,
  type ContactListItemInput,
  type ContactListItemUpdateInput,
  type ContactListItemView,
} from '@atendi/shared';
import { settingValue, useCompanySettings } from '../../app/layout/use-shell-data';
import { useDialogSave } from '../../components/dialog-save';
import { usePhoneHint } from '../../lib/phone';
import { registerMui } from '../../lib/forms';
import { fieldErrorKey, ruleErrors, type FormField } from './contact-list-forms';
import {
  applyContactListItemEventToCache,
  createContactListItem,
  updateContactListItem,
} from './contact-lists.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

type ItemFormValues = z.input<typeof contactListItemSchema>;

const fields = ['name', 'number', 'email'] as const;

// PUT takes the fields to change: an untouched number is not looked up on WhatsApp again.
const changesOf = (item: ContactListItemView, input: ContactListItemInput) => {
  const changes: ContactListItemUpdateInput = {};
  for (const field of fields) if (input[field] !== item[field]) changes[field] = input[field];
  return changes;
};

const ContactListItemForm = ({
  contactListId,
  item,
}: {
  contactListId: number;
  item: ContactListItemView | null;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // A new item and an edited one follow the same rules (SPEC §5).
  const form = useForm<ItemFormValues, unknown, ContactListItemInput>({
    resolver: zodResolver(contactListItemSchema),
    defaultValues: {
      name: item?.name ?? '',
      number: item?.number ?? '',
      email: item?.email ?? '',
      contactListId,
    },
  });
  const { register, watch } = form;
  const values = watch();
  const hint = usePhoneHint(settingValue(useCompanySettings(), 'country'));

  const save = useDialogSave(form, {
    save: async (input) => {
      const saved = item
        ? await updateContactListItem(item.id, changesOf(item, input))
        : await createContactListItem(input);
      applyContactListItemEventToCache(queryClient, {
        action: item ? 'update' : 'create',
        record: saved,
      });
    },
    savedText: t('contactListItems.saved'),
    codes: { ERR_DUPLICATED_LIST_ITEM: 'number', ERR_INVALID_NUMBER: 'number' },
    fields: ruleErrors(fields),
  });

  const fieldError = (field: FormField) => {
    const error = form.formState.errors[field];
    return error
      ? { error: true, helperText: t(fieldErrorKey(field, error, values[field] ?? '')) }
      : { error: false };
  };

  const numberError = fieldError('number');

  return (
    <DialogForm
      title={item ? t('contactListItems.dialog.editTitle') : t('contactListItems.dialog.addTitle')}
      {...save}
      submitLabel={item ? t('common.save') : t('contactListItems.dialog.add')}
    >
      <Stack spacing={2}>
        <TextField
          {...registerMui(register, 'name')}
          label={t('contactListItems.dialog.name')}
          autoComplete="off"
          autoFocus
          fullWidth
          {...fieldError('name')}
        />
        <TextField
          {...registerMui(register, 'number')}
          label={t('contactListItems.dialog.number')}
          autoComplete="off"
          fullWidth
          {...numberError}
          helperText={numberError.helperText ?? hint}
          slotProps={{ htmlInput: { inputMode: 'tel' } }}
        />
        <TextField
          {...registerMui(register, 'email')}
          label={t('contactListItems.dialog.email')}
          type="email"
          autoComplete="off"
          fullWidth
          {...fieldError('email')}
        />
      </Stack>
    </DialogForm>
  );
};

// The add/edit dialog of a list's contact; sessionKey gives every opening a fresh form.
export const ContactListItemDialog = ({
  open,
  contactListId,
  item,
  sessionKey,
  onClose,
}: {
  open: boolean;
  contactListId: number;
  item: ContactListItemView | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="xs">
    <ContactListItemForm contactListId={contactListId} item={item} />
  </DialogFrame>
);
