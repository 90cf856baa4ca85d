import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { zodResolver } from '@hookform/resolvers/zod';
import { useFieldArray, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ContactDetailView } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui } from '../../lib/forms';
import { useUpdateContact } from './contact-drawer.api';

// SPEC §3 Contact: on edit the stored number shows without its first 2 characters. They stay in front
// of the field, untouched, and are put back on save, so saving an unchanged number keeps it whole.
const PREFIX_LENGTH = 2;

const messages = {
  required: 'tickets.contactDrawer.validation.required',
  tooShort: 'tickets.contactDrawer.validation.tooShort',
  tooLong: 'tickets.contactDrawer.validation.tooLong',
  email: 'tickets.contactDrawer.validation.email',
};

// SPEC §5 Contact: name required, 2 to 50; number 8 to 50; email valid.
const contactFormSchema = (prefix: string) =>
  z.object({
    name: z
      .string()
      .trim()
      .min(1, messages.required)
      .min(2, messages.tooShort)
      .max(50, messages.tooLong),
    number: z
      .string()
      .trim()
      .refine((rest) => (prefix + rest).length >= 8, messages.tooShort)
      .refine((rest) => (prefix + rest).length <= 50, messages.tooLong),
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
type ContactFormValues = z.infer<ReturnType<typeof contactFormSchema>>;

const ContactForm = ({ contact, onClose }: { contact: ContactDetailView; onClose: () => void }) => {
  const { t } = useTranslation();
  const update = useUpdateContact(contact.id);
  // Groups keep their WhatsApp id; it is not a number one types.
  const isNumberLocked = contact.isGroup || contact.number.includes('@');
  const prefix = isNumberLocked ? '' : contact.number.slice(0, PREFIX_LENGTH);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues>({
    resolver: zodResolver(contactFormSchema(prefix)),
    defaultValues: {
      name: contact.name,
      number: isNumberLocked ? contact.number : contact.number.slice(PREFIX_LENGTH),
      email: contact.email,
      extraInfo: contact.extraInfo.map(({ name, value }) => ({ name, value })),
    },
  });
  const extraInfo = useFieldArray({ control, name: 'extraInfo' });

  const onSubmit = async (values: ContactFormValues) => {
    await waitBeforeSubmit();
    try {
      await update.mutateAsync({
        name: values.name,
        number: isNumberLocked ? contact.number : prefix + values.number,
        email: values.email,
        extraInfo: values.extraInfo.filter((row) => row.name !== ''),
      });
      toast.success(t('tickets.contactDrawer.saved'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_CONTACT') {
        setError('number', { message: 'errors.ERR_DUPLICATED_CONTACT' });
      } else {
        toastError(error);
      }
    }
  };

  const fieldError = (message: string | undefined) => ({
    error: Boolean(message),
    helperText: message ? t(message) : undefined,
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <DialogTitle>{t('tickets.contactDrawer.editTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            {...registerMui(register, 'name')}
            label={t('tickets.contactDrawer.name')}
            autoFocus
            fullWidth
            {...fieldError(errors.name?.message)}
          />
          <TextField
            {...registerMui(register, 'number')}
            label={t('tickets.contactDrawer.number')}
            disabled={isNumberLocked}
            fullWidth
            {...fieldError(errors.number?.message)}
            slotProps={
              prefix
                ? {
                    input: {
                      startAdornment: <InputAdornment position="start">{prefix}</InputAdornment>,
                    },
                  }
                : undefined
            }
          />
          <TextField
            {...registerMui(register, 'email')}
            type="email"
            label={t('tickets.contactDrawer.email')}
            fullWidth
            {...fieldError(errors.email?.message)}
          />
          <Typography variant="subtitle2">{t('tickets.contactDrawer.extraInfo')}</Typography>
          {extraInfo.fields.map((field, index) => (
            <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
              <TextField
                {...registerMui(register, `extraInfo.${index}.name`)}
                label={t('tickets.contactDrawer.extraName')}
                size="small"
                fullWidth
                {...fieldError(errors.extraInfo?.[index]?.name?.message)}
              />
              <TextField
                {...registerMui(register, `extraInfo.${index}.value`)}
                label={t('tickets.contactDrawer.extraValue')}
                size="small"
                fullWidth
              />
              <IconButton
                aria-label={t('tickets.contactDrawer.removeExtra')}
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
              {t('tickets.contactDrawer.addExtra')}
            </Button>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isSubmitting}>
          {t('tickets.contactDrawer.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('tickets.contactDrawer.save')}
        </Button>
      </DialogActions>
    </form>
  );
};

// The contact dialog of the chat's drawer (SPEC §2 Modals: contact).
export const ContactDrawerDialog = ({
  contact,
  open,
  onClose,
}: {
  contact: ContactDetailView;
  open: boolean;
  onClose: () => void;
}) => (
  <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper">
    {/* A fresh form each time it opens, with what the contact holds then. */}
    {open && <ContactForm contact={contact} onClose={onClose} />}
  </Dialog>
);
