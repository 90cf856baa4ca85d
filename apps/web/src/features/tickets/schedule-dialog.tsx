import {
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
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { SCHEDULE_BODY_MIN, SCHEDULE_DEFAULT_DELAY_MS, type ContactView } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { ADMIN_FORM_SUBMIT_DELAY_MS, waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui } from '../../lib/forms';
import { applyScheduleEvent, createSchedule } from './scheduled-messages';

const messages = {
  tooShort: 'tickets.schedules.validation.tooShort',
  required: 'tickets.schedules.validation.required',
  past: 'tickets.schedules.validation.past',
};

const pad = (value: number) => String(value).padStart(2, '0');

// What a datetime-local input holds: the local date and time, to the minute.
export const toLocalInput = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

// SPEC §5 Schedule: body at least 5 characters, send date required (and, to be sent, ahead of now).
const scheduleFormSchema = z.object({
  body: z.string().trim().min(SCHEDULE_BODY_MIN, messages.tooShort),
  sendAt: z
    .string()
    .min(1, messages.required)
    .refine((value) => !Number.isNaN(new Date(value).getTime()), messages.required)
    .refine((value) => new Date(value).getTime() > Date.now(), messages.past),
});
type ScheduleFormValues = z.infer<typeof scheduleFormSchema>;

const ScheduleForm = ({ contact, onClose }: { contact: ContactView; onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ScheduleFormValues>({
    resolver: zodResolver(scheduleFormSchema),
    // SPEC §9: one hour from now.
    defaultValues: {
      body: '',
      sendAt: toLocalInput(new Date(Date.now() + SCHEDULE_DEFAULT_DELAY_MS)),
    },
  });

  const onSubmit = async (values: ScheduleFormValues) => {
    // SPEC §9: schedule forms send 500 ms after the click.
    await waitBeforeSubmit(ADMIN_FORM_SUBMIT_DELAY_MS);
    try {
      const schedule = await createSchedule({
        body: values.body,
        contactId: contact.id,
        sendAt: new Date(values.sendAt).toISOString(),
      });
      applyScheduleEvent(queryClient, { action: 'create', schedule });
      toast.success(t('tickets.schedules.saved'));
      onClose();
    } catch (error) {
      const field = error instanceof ApiError ? error.fields : undefined;
      if (field?.sendAt) setError('sendAt', { message: messages.past });
      else if (field?.body) setError('body', { message: messages.tooShort });
      else toastError(error);
    }
  };

  const fieldError = (message: string | undefined) => ({
    error: Boolean(message),
    helperText: message ? t(message) : undefined,
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <DialogTitle>{t('tickets.schedules.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            label={t('tickets.schedules.contact')}
            value={contact.name || contact.number}
            fullWidth
            disabled
          />
          <TextField
            {...registerMui(register, 'body')}
            label={t('tickets.schedules.body')}
            multiline
            minRows={3}
            maxRows={10}
            autoFocus
            fullWidth
            {...fieldError(errors.body?.message)}
          />
          <TextField
            {...registerMui(register, 'sendAt')}
            type="datetime-local"
            label={t('tickets.schedules.sendAt')}
            fullWidth
            slotProps={{ inputLabel: { shrink: true } }}
            {...fieldError(errors.sendAt?.message)}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isSubmitting}>
          {t('tickets.schedules.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('tickets.schedules.submit')}
        </Button>
      </DialogActions>
    </form>
  );
};

// SPEC §2 Modals: schedule, opened from the chat for the ticket's contact (POST /schedules).
export const ScheduleDialog = ({
  open,
  contact,
  onClose,
}: {
  open: boolean;
  contact: ContactView;
  onClose: () => void;
}) => (
  <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
    {/* A fresh form each time, so the proposed time is an hour from this opening. */}
    {open && <ScheduleForm contact={contact} onClose={onClose} />}
  </Dialog>
);
