import { useState } from 'react';
import { Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { ContactField, type ContactChoice } from './new-ticket-dialog';
import {
  applyMessagesToCache,
  applyTicketEventToCache,
  forwardMessages,
  useTicketViewer,
} from './tickets.api';

const ForwardForm = ({
  messageIds,
  onForwarded,
}: {
  messageIds: readonly number[];
  onForwarded: (ticket: TicketView, contact: ContactChoice) => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  const [contact, setContact] = useState<ContactChoice | null>(null);

  // A refusal toasts through the query client: ERR_OTHER_OPEN_TICKET names who holds the contact's
  // conversation, as for a new ticket; the dialog stays open to choose again.
  const forward = useMutation({
    mutationFn: async (to: ContactChoice) => {
      await waitBeforeSubmit();
      return forwardMessages([...messageIds], to.id);
    },
    onSuccess: ({ ticket, messages }, to) => {
      // The lists and the conversation the messages went to learn them at once.
      applyTicketEventToCache(queryClient, { action: 'update', ticket }, viewer);
      applyMessagesToCache(queryClient, ticket.id, messages);
      onForwarded(ticket, to);
    },
  });

  return (
    <DialogForm
      title={t('tickets.forward.title', { count: messageIds.length })}
      onSubmit={(event) => {
        event.preventDefault();
        if (contact) forward.mutate(contact);
      }}
      isSubmitting={forward.isPending}
      submitLabel={t('tickets.forward.submit')}
      submitDisabled={!contact}
    >
      <Stack spacing={2}>
        <ContactField value={contact} onChange={setContact} />
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('tickets.forward.hint')}
        </Typography>
      </Stack>
    </DialogForm>
  );
};

// Issue 39: POST /messages/forward with the checked messages, to a contact chosen here.
export const ForwardDialog = ({
  open,
  messageIds,
  onClose,
  onForwarded,
}: {
  open: boolean;
  messageIds: readonly number[];
  onClose: () => void;
  onForwarded: (ticket: TicketView, contact: ContactChoice) => void;
}) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <ForwardForm messageIds={messageIds} onForwarded={onForwarded} />}
  </DialogFrame>
);
