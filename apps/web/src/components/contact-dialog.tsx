import { Box, Button, IconButton, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ContactDetailView, ContactInput } from '@atendi/shared';
import { DialogForm, DialogFrame } from './dialog-frame';
import { FormText } from './form-text';
import { useDialogSave } from './dialog-save';
import { useFormatPhone, usePhoneHint } from '../lib/phone';

const messages = {
  required: 'contactForm.validation.required',
  tooShort: 'contactForm.validation.tooShort',
  tooLong: 'contactForm.validation.tooLong',
  email: 'contactForm.validation.email',
};

// SPEC §5 Contact: name required, 2 to 50; number 8 to 50; email valid.
const contactFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, messages.required)
    .min(2, messages.tooShort)
    .max(50, messages.tooLong),
  number: z.string().trim().min(8, messages.tooShort).max(50, messages.tooLong),
  email: z.union([z.literal(''), z.string().trim().pipe(z.email(messages.email))]),
  extraInfo: z.array(
    z
      .object({ name: z.string().trim().max(100, messages.tooLong), value: z.string().trim() })
      .refine(({ name, value }) => name !== '' || value === '', {
        message: messages.required,
        path: ['name'],
      }),
  ),
});
type ContactFormValues = z.infer<typeof contactFormSchema>;

type ContactFormProps = {
  // The contact being edited; none to add one.
  contact?: ContactDetailView;
  onSave: (input: ContactInput) => Promise<unknown>;
  onClose: () => void;
  // The company's country (Settings): a number typed without its country code is one of it.
  country?: string;
};

const ContactForm = ({ contact, onSave, country }: Omit<ContactFormProps, 'onClose'>) => {
  const { t } = useTranslation();
  const formatPhone = useFormatPhone();
  const hint = usePhoneHint(country);
  // Groups keep their WhatsApp id; it is not a number one types.
  const isNumberLocked = Boolean(contact && (contact.isGroup || contact.number.includes('@')));
  // A saved number shows as people write it ('+52 55 1234 5678'); saved untouched, it goes back as
  // it is stored.
  const shownNumber = contact ? formatPhone(contact.number, isNumberLocked) : '';
  const form = useForm<ContactFormValues>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: {
      name: contact?.name ?? '',
      number: shownNumber,
      email: contact?.email ?? '',
      extraInfo: contact?.extraInfo.map(({ name, value }) => ({ name, value })) ?? [],
    },
  });
  const { control } = form;
  const extraInfo = useFieldArray({ control, name: 'extraInfo' });

  const save = useDialogSave(form, {
    save: (values) =>
      onSave({
        name: values.name,
        number:
          contact && (isNumberLocked || values.number === shownNumber)
            ? contact.number
            : values.number,
        email: values.email,
        extraInfo: values.extraInfo.filter((row) => row.name !== ''),
      }),
    savedText: t('contactForm.saved'),
    // The number's own faults sit under the field; a lookup that failed is a toast.
    codes: {
      ERR_DUPLICATED_CONTACT: 'number',
      ERR_WAPP_INVALID_CONTACT: 'number',
      ERR_INVALID_NUMBER: 'number',
    },
  });

  return (
    <DialogForm
      title={t(contact ? 'contactForm.editTitle' : 'contactForm.addTitle')}
      {...save}
      submitLabel={t('contactForm.save')}
    >
      <Stack spacing={2}>
        <FormText form={form} name="name" label={t('contactForm.name')} autoFocus />
        <FormText
          form={form}
          name="number"
          label={t('contactForm.number')}
          disabled={isNumberLocked}
          hint={isNumberLocked ? undefined : hint}
          slotProps={{ htmlInput: { inputMode: 'tel' } }}
        />
        <FormText form={form} name="email" type="email" label={t('contactForm.email')} />
        <Typography variant="subtitle2">{t('contactForm.extraInfo')}</Typography>
        {extraInfo.fields.map((field, index) => (
          <Stack
            key={field.id}
            direction="row"
            spacing={1}
            sx={{
              alignItems: 'flex-start',
            }}
          >
            <FormText
              form={form}
              name={`extraInfo.${index}.name`}
              label={t('contactForm.extraName')}
              size="small"
            />
            <FormText
              form={form}
              name={`extraInfo.${index}.value`}
              label={t('contactForm.extraValue')}
              size="small"
            />
            <IconButton
              aria-label={t('contactForm.removeExtra')}
              onClick={() => extraInfo.remove(index)}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Stack>
        ))}
        <Box>
          <Button
            size="small"
            startIcon={<AddIcon />}
            onClick={() => extraInfo.append({ name: '', value: '' })}
          >
            {t('contactForm.addExtra')}
          </Button>
        </Box>
      </Stack>
    </DialogForm>
  );
};

// SPEC §2 Modals: contact. Adds a contact, or edits one (the chat's drawer, the contacts page).
export const ContactDialog = ({ open, onClose, ...form }: ContactFormProps & { open: boolean }) => (
  <DialogFrame open={open} onClose={onClose}>
    {/* A fresh form each time it opens, with what the contact holds then. */}
    {open && <ContactForm {...form} />}
  </DialogFrame>
);
