import { useState } from 'react';
import {
  Autocomplete,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { SCHEDULE_BODY_MIN, SCHEDULE_DEFAULT_DELAY_MS, type ScheduleView } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { ADMIN_FORM_SUBMIT_DELAY_MS, waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui } from '../../lib/forms';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import {
  createSchedule,
  updateSchedule,
  useContactSearch,
  type ContactChoice,
} from './schedules.api';

// SPEC §5: contact searches start at 3 typed characters.
export const MIN_CONTACT_SEARCH = 3;

const messages = {
  tooShort: 'schedules.validation.tooShort',
  required: 'schedules.validation.required',
  past: 'schedules.validation.past',
};

const pad = (value: number) => String(value).padStart(2, '0');

// What a datetime-local input holds: the local date and time, to the minute.
export const toLocalInput = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

const contactChoice = z.object({ id: z.number(), name: z.string(), number: z.string() });

// SPEC §5 Schedule: contact required, body at least 5 characters, send date required.
const formSchema = z.object({
  contact: contactChoice.nullable().refine((value) => value !== null, messages.required),
  body: z.string().trim().min(SCHEDULE_BODY_MIN, messages.tooShort),
  sendAt: z
    .string()
    .min(1, messages.required)
    .refine((value) => !Number.isNaN(new Date(value).getTime()), messages.required)
    .refine((value) => new Date(value).getTime() > Date.now(), messages.past),
});
type FormValues = z.input<typeof formSchema>;

const contactText = (contact: ContactChoice) =>
  contact.number ? `${contact.name} - ${contact.number}` : contact.name;

const ScheduleForm = ({
  schedule,
  contact,
  onClose,
  onSaved,
}: {
  schedule: ScheduleView | null;
  contact: ContactChoice | null;
  onClose: () => void;
  onSaved: (schedule: ScheduleView) => void;
}) => {
  const { t } = useTranslation();
  const [contactInput, setContactInput] = useState('');
  const typed = useDebouncedValue(contactInput.trim());
  const term = typed.length >= MIN_CONTACT_SEARCH ? typed : '';
  const found = useContactSearch(term);
  const isShort = contactInput.trim().length < MIN_CONTACT_SEARCH;

  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      contact: schedule?.contact ?? contact,
      body: schedule?.body ?? '',
      // SPEC §9: one hour from now.
      sendAt: toLocalInput(
        schedule ? new Date(schedule.sendAt) : new Date(Date.now() + SCHEDULE_DEFAULT_DELAY_MS),
      ),
    },
  });

  const onSubmit = async (values: FormValues) => {
    // SPEC §9: schedule forms send 500 ms after the click.
    await waitBeforeSubmit(ADMIN_FORM_SUBMIT_DELAY_MS);
    const input = {
      body: values.body.trim(),
      contactId: values.contact!.id,
      sendAt: new Date(values.sendAt).toISOString(),
    };
    try {
      const saved = schedule
        ? await updateSchedule(schedule.id, input)
        : await createSchedule(input);
      toast.success(t('schedules.toasts.saved'));
      onSaved(saved);
      onClose();
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : undefined;
      if (fields?.sendAt) setError('sendAt', { message: messages.past });
      else if (fields?.body) setError('body', { message: messages.tooShort });
      else toastError(error);
    }
  };

  const fieldError = (message: string | undefined) => ({
    error: Boolean(message),
    helperText: message ? t(message) : undefined,
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <DialogTitle>
        {t(schedule ? 'schedules.dialog.editTitle' : 'schedules.dialog.addTitle')}
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          <Controller
            control={control}
            name="contact"
            render={({ field, fieldState }) => (
              <Autocomplete
                options={term ? (found.data?.contacts ?? []) : []}
                value={field.value}
                onChange={(_event, next) => field.onChange(next)}
                inputValue={contactInput}
                onInputChange={(_event, next) => setContactInput(next)}
                // The API already filtered by the typed text.
                filterOptions={(options) => options}
                getOptionLabel={contactText}
                isOptionEqualToValue={(option, selected) => option.id === selected.id}
                loading={found.isFetching}
                loadingText={t('app.loading')}
                noOptionsText={t(
                  isShort ? 'schedules.dialog.typeMore' : 'schedules.dialog.noContacts',
                )}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    required
                    label={t('schedules.dialog.contact')}
                    inputRef={field.ref}
                    {...fieldError(fieldState.error?.message)}
                  />
                )}
              />
            )}
          />
          <TextField
            {...registerMui(register, 'body')}
            label={t('schedules.dialog.body')}
            required
            multiline
            minRows={3}
            maxRows={10}
            fullWidth
            {...fieldError(errors.body?.message)}
          />
          <TextField
            {...registerMui(register, 'sendAt')}
            type="datetime-local"
            label={t('schedules.dialog.sendAt')}
            required
            fullWidth
            slotProps={{ inputLabel: { shrink: true } }}
            {...fieldError(errors.sendAt?.message)}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isSubmitting}>
          {t('schedules.dialog.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t(schedule ? 'schedules.dialog.save' : 'schedules.dialog.add')}
        </Button>
      </DialogActions>
    </form>
  );
};

// SPEC §2 Modals: schedule. Adds one (optionally for a given contact) or edits the one given.
export const ScheduleFormDialog = ({
  open,
  schedule,
  contact = null,
  onClose,
  onSaved,
}: {
  open: boolean;
  schedule: ScheduleView | null;
  contact?: ContactChoice | null;
  onClose: () => void;
  onSaved: (schedule: ScheduleView) => void;
}) => (
  <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
    {/* A fresh form each opening: the proposed time is an hour from then. */}
    {open && (
      <ScheduleForm schedule={schedule} contact={contact} onClose={onClose} onSaved={onSaved} />
    )}
  </Dialog>
);
