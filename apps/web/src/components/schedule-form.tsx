import type { ReactNode, Ref } from 'react';
import { Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { DateField } from './date-field';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { SCHEDULE_BODY_MIN, SCHEDULE_DEFAULT_DELAY_MS, type ScheduleInput } from '@atendi/shared';
import { ADMIN_FORM_SUBMIT_DELAY_MS } from '../lib/form-delay';
import { registerMui } from '../lib/forms';
import { DialogForm, DialogFrame } from './dialog-frame';
import { useDialogSave } from './dialog-save';

// SPEC §2 Modals: schedule. The chat schedules a message for its ticket's contact; the schedules page
// picks the contact and edits schedules too. Both ask the same fields with the same checks.

export type ScheduleContact = { id: number; name: string; number: string };

const messages = {
  tooShort: 'scheduleForm.validation.tooShort',
  required: 'scheduleForm.validation.required',
};

const pad = (value: number) => String(value).padStart(2, '0');

// The date field's value (the text a datetime-local input holds): the local date and time, to the minute.
const toLocalInput = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

const contactSchema = z.object({ id: z.number(), name: z.string(), number: z.string() });

// SPEC §5 Schedule: contact required, body at least 5 characters, send date required (and, to be
// sent, ahead of now: `past` is the message for one that is not).
const scheduleFormSchema = (past: string) =>
  z.object({
    contact: contactSchema.nullable().refine((value) => value !== null, messages.required),
    body: z.string().trim().min(SCHEDULE_BODY_MIN, messages.tooShort),
    sendAt: z
      .string()
      .min(1, messages.required)
      .refine((value) => !Number.isNaN(new Date(value).getTime()), messages.required)
      .refine((value) => new Date(value).getTime() > Date.now(), past),
  });
type ScheduleFormValues = z.input<ReturnType<typeof scheduleFormSchema>>;

// What a page's contact picker is given to show and change the chosen contact.
export type ContactPickerProps = {
  value: ScheduleContact | null;
  onChange: (contact: ScheduleContact | null) => void;
  inputRef: Ref<HTMLInputElement>;
  label: string;
  required: boolean;
  error: boolean;
  helperText?: string;
};

type ScheduleFormProps = {
  title: string;
  submitLabel: string;
  // The i18n key of the error for a send time that is not ahead of now.
  pastMessage: string;
  contact: ScheduleContact | null;
  // The schedule being edited; a new one starts empty, to be sent an hour from now.
  initial?: { body: string; sendAt: string };
  // Lets the user choose the contact; without it the contact given is fixed.
  pickContact?: (props: ContactPickerProps) => ReactNode;
  // Marks the fields as required.
  markRequired?: boolean;
  // Stores the schedule; a refusal of its fields shows on them, and the dialog closes on success
  // with savedText in a toast.
  save: (input: ScheduleInput) => Promise<void>;
  savedText: string;
  onClose: () => void;
};

const ScheduleForm = ({
  title,
  submitLabel,
  pastMessage,
  contact,
  initial,
  pickContact,
  markRequired = false,
  save,
  savedText,
}: Omit<ScheduleFormProps, 'onClose'>) => {
  const { t } = useTranslation();
  const form = useForm<ScheduleFormValues>({
    resolver: zodResolver(scheduleFormSchema(pastMessage)),
    defaultValues: {
      contact,
      body: initial?.body ?? '',
      // SPEC §9: one hour from now.
      sendAt: toLocalInput(
        initial ? new Date(initial.sendAt) : new Date(Date.now() + SCHEDULE_DEFAULT_DELAY_MS),
      ),
    },
  });

  const {
    control,
    register,
    formState: { errors },
  } = form;

  const dialogSave = useDialogSave(form, {
    save: (values) =>
      save({
        body: values.body.trim(),
        contactId: values.contact!.id,
        sendAt: new Date(values.sendAt).toISOString(),
      }),
    savedText,
    fields: ({ fields }) =>
      fields?.sendAt
        ? [['sendAt', pastMessage]]
        : fields?.body
          ? [['body', messages.tooShort]]
          : [],
    // SPEC §9: schedule forms send 500 ms after the click.
    delayMs: ADMIN_FORM_SUBMIT_DELAY_MS,
  });

  const fieldError = (message: string | undefined) => ({
    error: Boolean(message),
    helperText: message ? t(message) : undefined,
  });

  return (
    <DialogForm title={title} {...dialogSave} submitLabel={submitLabel}>
      <Stack spacing={2}>
        {pickContact ? (
          <Controller
            control={control}
            name="contact"
            render={({ field, fieldState }) => (
              <>
                {pickContact({
                  value: field.value,
                  onChange: field.onChange,
                  inputRef: field.ref,
                  label: t('scheduleForm.contact'),
                  required: markRequired,
                  ...fieldError(fieldState.error?.message),
                })}
              </>
            )}
          />
        ) : (
          <TextField
            label={t('scheduleForm.contact')}
            value={contact ? contact.name || contact.number : ''}
            fullWidth
            disabled
          />
        )}
        <TextField
          {...registerMui(register, 'body')}
          label={t('scheduleForm.body')}
          required={markRequired}
          multiline
          minRows={3}
          maxRows={10}
          // With the contact fixed, the message is the first thing to fill in.
          autoFocus={!pickContact}
          fullWidth
          {...fieldError(errors.body?.message)}
        />
        <Controller
          name="sendAt"
          control={control}
          render={({ field }) => (
            <DateField
              kind="datetime"
              label={t('scheduleForm.sendAt')}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              name={field.name}
              required={markRequired}
              fullWidth
              {...fieldError(errors.sendAt?.message)}
            />
          )}
        />
      </Stack>
    </DialogForm>
  );
};

export const ScheduleMessageDialog = ({
  open,
  onClose,
  ...form
}: ScheduleFormProps & { open: boolean }) => (
  <DialogFrame open={open} onClose={onClose}>
    {/* A fresh form each opening: the proposed time is an hour from then. */}
    {open && <ScheduleForm {...form} />}
  </DialogFrame>
);
