import { useId, useState } from 'react';
import { Autocomplete, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  can,
  ticketsContract,
  usersContract,
  type Presence,
  type TicketUpdateInput,
  type TicketView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { patchCachedQueries, usePresenceEvents, withPresence } from '../../api/presence';
import { useConnections } from '../../api/queries/connections';
import { useQueues } from '../../api/queries/queues';
import { useUserOptions } from '../../api/queries/users';
import { useCurrentSession } from '../../api/session';
import { waitBeforeSubmit } from '../../lib/form-delay';
import {
  ConnectionField,
  MIN_SEARCH_LENGTH,
  QueueField,
  useSearchTerm,
  type QueueChoice,
} from './new-ticket-dialog';
import { applyTicketEventToCache, useTicketViewer } from './tickets.api';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';
import { PresenceDot } from '../../components/presence-dot';

// GET /users carries each user's queues; GET /users/list (the picker list for everyone) does not.
// Both say whether the person is online, away or offline.
type UserChoice = {
  id: number;
  name: string;
  online: boolean;
  presence: Presence;
  queues?: QueueChoice[];
};

const searchedUsersKey = ['tickets', 'dialog', 'users'] as const;

const searchUsers = async (searchParam: string): Promise<UserChoice[]> =>
  (await call(usersContract.listUsers, { query: { searchParam, pageNumber: 1 } })).users;

// GET /users is for those who manage users; the others filter the short list the same way.
const matching = (users: UserChoice[] | undefined, term: string) =>
  users?.filter((user) => user.name.toLowerCase().includes(term.toLowerCase()));

const transferTicket = (id: number, input: TicketUpdateInput) =>
  call(ticketsContract.updateTicket, { params: { id }, body: input });

// The queues a transfer may land in: the chosen person's, when the user view says which.
const queuesFor = (user: UserChoice | null, all: QueueChoice[]) =>
  user?.queues?.length ? user.queues : all;

const TransferForm = ({ ticket, onClose }: { ticket: TicketView; onClose: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const viewer = useTicketViewer();
  const canManageUsers = can(me, 'users:manage');
  const allQueues = useQueues();
  const connections = useConnections();

  const [userInput, setUserInput] = useState('');
  const [target, setTarget] = useState<UserChoice | null>(null);
  const [queueId, setQueueId] = useState<number | ''>(ticket.queueId ?? '');
  const [whatsappId, setWhatsappId] = useState<number | ''>(ticket.whatsappId);

  const term = useSearchTerm(userInput);
  const searched = useQuery({
    queryKey: [...searchedUsersKey, term],
    queryFn: () => searchUsers(term),
    enabled: canManageUsers && term !== '',
    staleTime: 0,
  });
  const options = useUserOptions({ enabled: !canManageUsers && term !== '' });
  const found = canManageUsers
    ? searched
    : { data: matching(options.data, term), isFetching: options.isFetching };
  const isShort = userInput.trim().length < MIN_SEARCH_LENGTH;
  const queues = queuesFor(target, allQueues.data ?? []);
  const optionIds = useId();

  // The people found show their presence as it changes (the short list follows it on its own).
  usePresenceEvents((change) =>
    patchCachedQueries<UserChoice[]>(queryClient, searchedUsersKey, (users) =>
      users.map((user) => withPresence(user, change)),
    ),
  );

  const chooseUser = (next: UserChoice | null) => {
    setTarget(next);
    // A queue the new person does not serve is dropped; their only queue is the obvious choice.
    const choices = queuesFor(next, allQueues.data ?? []);
    if (next?.queues?.length === 1) setQueueId(next.queues[0].id);
    else if (queueId !== '' && !choices.some((queue) => queue.id === queueId)) setQueueId('');
  };

  const transfer = useMutation({
    mutationFn: async (input: TicketUpdateInput) => {
      await waitBeforeSubmit();
      return transferTicket(ticket.id, input);
    },
    onSuccess: (updated) => {
      applyTicketEventToCache(queryClient, { action: 'update', ticket: updated }, viewer);
      toast.success(t('tickets.transfer.done'));
      onClose();
      navigate('/tickets');
    },
  });

  // SPEC §4 Transfer: to a person it stays open as theirs; to nobody it waits in the queue.
  const submit = () =>
    transfer.mutate({
      userId: target?.id ?? null,
      queueId: queueId === '' ? null : queueId,
      ...(whatsappId === '' ? {} : { whatsappId }),
      status: target ? 'open' : 'pending',
    });

  return (
    <DialogForm
      title={t('tickets.transfer.title')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      isSubmitting={transfer.isPending}
      submitLabel={t('tickets.transfer.submit')}
    >
      <Stack spacing={2}>
        <Autocomplete
          options={term ? (found.data ?? []) : []}
          value={target}
          onChange={(_event, next) => chooseUser(next)}
          inputValue={userInput}
          onInputChange={(_event, next) => setUserInput(next)}
          filterOptions={(options) => options}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          renderOption={({ key, ...props }, option) => {
            const presenceId = `${optionIds}-presence-${option.id}`;
            return (
              <li key={key} {...props} aria-describedby={presenceId}>
                <PresenceDot presence={option.presence} sx={{ mr: 1.5 }} />
                <Typography component="span" variant="inherit" noWrap sx={{ flexGrow: 1 }}>
                  {option.name}
                </Typography>
                {/* Its description, not part of its name. */}
                <Typography
                  id={presenceId}
                  aria-hidden
                  variant="caption"
                  sx={{ ml: 1, color: 'text.secondary', flexShrink: 0 }}
                >
                  {t(`presence.${option.presence}`)}
                </Typography>
              </li>
            );
          }}
          loading={found.isFetching}
          loadingText={t('app.loading')}
          noOptionsText={isShort ? t('tickets.dialogs.typeMore') : t('tickets.transfer.noUsers')}
          renderInput={(params) => (
            <TextField
              {...params}
              autoFocus
              label={t('tickets.transfer.user')}
              helperText={target ? undefined : t('tickets.transfer.noUserHint')}
            />
          )}
        />
        <QueueField
          queues={queues}
          value={queueId}
          onChange={setQueueId}
          isLoading={allQueues.isPending}
          isRequired={false}
        />
        <ConnectionField
          connections={connections.data ?? []}
          value={whatsappId}
          onChange={setWhatsappId}
        />
      </Stack>
    </DialogForm>
  );
};

// SPEC §5 Transfer: PUT /tickets/{id} with the chosen person, queue and connection; then the list.
export const TransferDialog = ({
  open,
  ticket,
  onClose,
}: {
  open: boolean;
  ticket: TicketView;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} maxWidth="xs">
    {open && <TransferForm ticket={ticket} onClose={onClose} />}
  </DialogFrame>
);
