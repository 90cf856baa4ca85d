import { useState } from 'react';
import { Autocomplete, Box, CircularProgress, MenuItem, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  can,
  contactsContract,
  ticketsContract,
  type TicketCreateInput,
  type TicketView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useConnections } from '../../api/queries/connections';
import { useContactSearch } from '../../api/queries/contacts';
import { useQueues } from '../../api/queries/queues';
import { useCurrentSession } from '../../api/session';
import { ERROR_TOAST_MS } from '../../api/toasts';
import { settingValue, useCompanySettings } from '../../app/layout/use-shell-data';
import { cssColor } from '../../lib/colors';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { useFormatPhone, usePhone } from '../../lib/phone';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { applyTicketEventToCache, useTicketViewer } from './tickets.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';

// SPEC §5: contact and user searches start at 3 typed characters.
export const MIN_SEARCH_LENGTH = 3;

export type QueueChoice = { id: number; name: string; color: string };
type ConnectionChoice = { id: number; name: string };
// A contact found, or (isNew) a typed number no contact has yet.
export type ContactChoice = {
  id: number;
  name: string;
  number: string;
  isGroup?: boolean;
  isNew?: true;
};

const createTicket = (input: TicketCreateInput) =>
  call(ticketsContract.createTicket, { body: input });

// A conversation with a number nobody saved: its contact is made first, named after the number as a
// contact who writes in is (WhatsApp's name for it replaces that when they answer).
const contactFor = async (choice: ContactChoice) =>
  choice.isNew
    ? (
        await call(contactsContract.createContact, {
          body: { name: choice.number, number: `+${choice.number}`, email: '', extraInfo: [] },
        })
      ).id
    : choice.id;

// The text typed into a search box as the API should see it: after 500 ms, and only from 3 characters.
export const useSearchTerm = (input: string) => {
  const term = useDebouncedValue(input.trim());
  return term.length >= MIN_SEARCH_LENGTH ? term : '';
};

const Swatch = ({ color }: { color: string }) => (
  <Box
    component="span"
    sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: cssColor(color), flexShrink: 0 }}
  />
);

// A queue picker; '' is no queue (or what emptyLabel says it means).
export const QueueField = ({
  queues,
  value,
  onChange,
  isLoading,
  isRequired,
  emptyLabel,
}: {
  queues: QueueChoice[];
  value: number | '';
  onChange: (value: number | '') => void;
  isLoading: boolean;
  isRequired: boolean;
  emptyLabel?: string;
}) => {
  const { t } = useTranslation();
  return (
    <TextField
      select
      fullWidth
      required={isRequired}
      label={t('tickets.dialogs.queue')}
      // Shown once the choices have loaded: a select rejects a value it has no option for.
      value={queues.some((queue) => queue.id === value) ? value : ''}
      onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))}
    >
      {!isRequired && (
        <MenuItem value="">
          <em>{emptyLabel ?? t('tickets.dialogs.noQueue')}</em>
        </MenuItem>
      )}
      {isLoading && (
        <MenuItem disabled>
          <CircularProgress size={18} sx={{ mr: 1 }} />
          {t('app.loading')}
        </MenuItem>
      )}
      {queues.map((queue) => (
        <MenuItem key={queue.id} value={queue.id}>
          <Stack
            direction="row"
            spacing={1}
            sx={{
              alignItems: 'center',
            }}
          >
            <Swatch color={queue.color} />
            <span>{queue.name}</span>
          </Stack>
        </MenuItem>
      ))}
    </TextField>
  );
};

// A connection picker; '' leaves the choice to the API (the user's, else the company's default).
export const ConnectionField = ({
  connections,
  value,
  onChange,
  emptyLabel,
}: {
  connections: ConnectionChoice[];
  value: number | '';
  onChange: (value: number | '') => void;
  emptyLabel?: string;
}) => {
  const { t } = useTranslation();
  return (
    <TextField
      select
      fullWidth
      label={t('tickets.dialogs.connection')}
      value={connections.some((connection) => connection.id === value) ? value : ''}
      onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))}
    >
      {emptyLabel !== undefined && (
        <MenuItem value="">
          <em>{emptyLabel}</em>
        </MenuItem>
      )}
      {connections.map((connection) => (
        <MenuItem key={connection.id} value={connection.id}>
          {connection.name}
        </MenuItem>
      ))}
    </TextField>
  );
};

// The contact a conversation is for: searched from 3 typed characters; with allowNew, a typed number
// no contact has (read with the company's country) is offered as a new contact.
export const ContactField = ({
  value,
  onChange,
  allowNew = false,
}: {
  value: ContactChoice | null;
  onChange: (contact: ContactChoice | null) => void;
  allowNew?: boolean;
}) => {
  const { t } = useTranslation();
  const [contactInput, setContactInput] = useState('');
  const term = useSearchTerm(contactInput);
  const found = useContactSearch(term);
  const isShort = contactInput.trim().length < MIN_SEARCH_LENGTH;
  const formatPhone = useFormatPhone();
  const phone = usePhone();
  const country = settingValue(useCompanySettings(), 'country');
  // A number typed (read with the company's country) that no contact found has: offered as new once
  // the search for it has answered.
  const typed = allowNew && phone && term ? phone.parseWhatsAppNumber(term, country) : undefined;
  const contacts: ContactChoice[] = term ? (found.data?.contacts ?? []) : [];
  const newNumber: ContactChoice | undefined =
    typed?.ok &&
    found.isSuccess &&
    !found.isFetching &&
    !contacts.some((c) => c.number === typed.number)
      ? { id: 0, name: '', number: typed.number, isNew: true }
      : undefined;

  return (
    <Autocomplete
      options={newNumber ? [...contacts, newNumber] : contacts}
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={contactInput}
      onInputChange={(_event, next) => setContactInput(next)}
      // The API already filtered by the typed text.
      filterOptions={(options) => options}
      getOptionLabel={(option) =>
        option.isNew
          ? t('tickets.newTicket.newNumber', { number: formatPhone(option.number) })
          : `${option.name} - ${formatPhone(option.number, option.isGroup)}`
      }
      isOptionEqualToValue={(option, selected) =>
        option.id === selected.id && option.number === selected.number
      }
      loading={found.isFetching}
      loadingText={t('app.loading')}
      noOptionsText={isShort ? t('tickets.dialogs.typeMore') : t('tickets.newTicket.noContacts')}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus
          required
          label={t('tickets.newTicket.contact')}
          placeholder={t('tickets.newTicket.contactPlaceholder')}
        />
      )}
    />
  );
};

const NewTicketForm = ({ onCreated }: { onCreated: (ticket: TicketView) => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useCurrentSession();
  const viewer = useTicketViewer();
  // SPEC §6: admins choose among every queue and may leave it out; others among their own.
  const isAdmin = can(user, 'tickets-manager:showall');
  // SPEC §8: a failed queue list toasts (the queries' default).
  const allQueues = useQueues({ enabled: isAdmin });
  const queues = isAdmin ? (allQueues.data ?? []) : user.queues;
  const connections = useConnections();

  const [contact, setContact] = useState<ContactChoice | null>(null);
  const [queueId, setQueueId] = useState<number | ''>(() =>
    !isAdmin && user.queues.length === 1 ? user.queues[0].id : '',
  );
  const [whatsappId, setWhatsappId] = useState<number | ''>('');

  const create = useMutation({
    mutationFn: async ({
      choice,
      ...input
    }: Omit<TicketCreateInput, 'contactId'> & { choice: ContactChoice }) => {
      await waitBeforeSubmit();
      const contactId = await contactFor(choice);
      // Made once: trying again (another queue) opens the conversation of the contact just made.
      if (choice.isNew) setContact({ id: contactId, name: choice.number, number: choice.number });
      return createTicket({ ...input, contactId });
    },
    onSuccess: (ticket) => {
      applyTicketEventToCache(queryClient, { action: 'update', ticket }, viewer);
      onCreated(ticket);
    },
  });

  const submit = () => {
    if (!contact) return;
    // SPEC §5 New ticket: only admins may go without a queue.
    if (queueId === '' && !isAdmin) {
      toast.error(t('tickets.newTicket.selectQueue'), { autoClose: ERROR_TOAST_MS });
      return;
    }
    create.mutate({
      choice: contact,
      queueId: queueId === '' ? null : queueId,
      whatsappId: whatsappId === '' ? null : whatsappId,
      userId: user.id,
      status: 'open',
    });
  };

  return (
    <DialogForm
      title={t('tickets.newTicket.title')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      isSubmitting={create.isPending}
      submitLabel={t('tickets.newTicket.submit')}
      submitDisabled={!contact}
    >
      <Stack spacing={2}>
        <ContactField value={contact} onChange={setContact} allowNew />
        <QueueField
          queues={queues}
          value={queueId}
          onChange={setQueueId}
          isLoading={isAdmin && allQueues.isPending}
          isRequired={!isAdmin}
        />
        <ConnectionField
          connections={connections.data ?? []}
          value={whatsappId}
          onChange={setWhatsappId}
          emptyLabel={t('tickets.dialogs.defaultConnection')}
        />
      </Stack>
    </DialogForm>
  );
};

// SPEC §5 New ticket: POST /tickets for a chosen contact, served by the current user.
export const NewTicketDialog = ({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (ticket: TicketView) => void;
}) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <NewTicketForm onCreated={onCreated} />}
  </DialogFrame>
);
