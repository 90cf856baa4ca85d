import { useState } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TICKET_NOTE_MIN, type TicketView } from '@atendi/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDate } from '../../lib/dates';
import { registerMui } from '../../lib/forms';
import {
  useAddTicketNote,
  useDeleteTicketNote,
  useTicketNotes,
  type TicketNote,
} from './contact-drawer.api';
import { formatTime } from './ticket-format';
import { useTicketViewer } from './tickets.api';

// SPEC §5 Ticket note: required ('Campo Obligatorio'), at least 2 characters ('Muy Corto').
const noteFormSchema = z.object({
  note: z
    .string()
    .trim()
    .min(1, 'tickets.contactDrawer.notes.required')
    .min(TICKET_NOTE_MIN, 'tickets.contactDrawer.notes.tooShort')
    .max(5000, 'contactForm.validation.tooLong'),
});
type NoteFormValues = z.infer<typeof noteFormSchema>;

// The ticket's notes: agents' remarks beside the conversation, shown oldest first.
export const ContactDrawerNotes = ({ ticket }: { ticket: TicketView }) => {
  const { t } = useTranslation();
  const viewer = useTicketViewer();
  const notes = useTicketNotes(ticket.id, ticket.contactId);
  const add = useAddTicketNote(ticket.id, ticket.contactId);
  const remove = useDeleteTicketNote(ticket.id);
  const [deleting, setDeleting] = useState<TicketNote | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<NoteFormValues>({
    resolver: zodResolver(noteFormSchema),
    defaultValues: { note: '' },
  });

  const onSubmit = (values: NoteFormValues) =>
    add.mutate(values.note, {
      onSuccess: () => {
        toast.success(t('tickets.contactDrawer.notes.added'));
        reset({ note: '' });
      },
    });

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => toast.success(t('tickets.contactDrawer.notes.deleted')),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Stack spacing={1}>
      <form noValidate onSubmit={handleSubmit(onSubmit)}>
        <Stack spacing={1}>
          <TextField
            {...registerMui(register, 'note')}
            label={t('tickets.contactDrawer.notes.label')}
            placeholder={t('tickets.contactDrawer.notes.placeholder')}
            multiline
            minRows={2}
            maxRows={6}
            fullWidth
            size="small"
            error={Boolean(errors.note)}
            helperText={errors.note?.message ? t(errors.note.message) : undefined}
          />
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button
              type="submit"
              size="small"
              variant="contained"
              disabled={add.isPending}
              startIcon={add.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {t('tickets.contactDrawer.notes.add')}
            </Button>
          </Box>
        </Stack>
      </form>
      {notes.isPending ? (
        <CircularProgress size={20} aria-label={t('app.loading')} sx={{ alignSelf: 'center' }} />
      ) : notes.data?.length ? (
        <List dense disablePadding aria-label={t('tickets.contactDrawer.notes.title')}>
          {notes.data.map((note) => (
            <ListItem
              key={note.id}
              disableGutters
              divider
              secondaryAction={
                // A note is its author's; admins may remove any (the API holds the same rule).
                note.userId === viewer.userId || viewer.seesAll ? (
                  <IconButton
                    edge="end"
                    size="small"
                    aria-label={t('tickets.contactDrawer.notes.delete')}
                    onClick={() => setDeleting(note)}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                ) : undefined
              }
            >
              <ListItemText
                primary={note.note}
                secondary={
                  <>
                    {/* Written by an AI agent or an integration: its name, with the bots' mark. */}
                    {note.botName && !note.user && (
                      <SmartToyOutlinedIcon
                        sx={{ fontSize: 14, mr: 0.5, verticalAlign: 'text-bottom' }}
                      />
                    )}
                    {`${note.user?.name ?? note.botName ?? ''} · ${formatDate(note.createdAt)} ${formatTime(note.createdAt)}`}
                  </>
                }
                slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } } }}
              />
            </ListItem>
          ))}
        </List>
      ) : (
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('tickets.contactDrawer.notes.empty')}
        </Typography>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('tickets.contactDrawer.notes.deleteTitle')}
        message={deleting?.note ?? ''}
        confirmLabel={t('tickets.contactDrawer.notes.confirmDelete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
};
