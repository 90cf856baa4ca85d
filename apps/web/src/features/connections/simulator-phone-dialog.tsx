import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Divider,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Menu,
  MenuItem,
  Stack,
  Switch,
  Tooltip,
  Typography,
} from '@mui/material';
import AddReactionOutlinedIcon from '@mui/icons-material/AddReactionOutlined';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailReadOutlined';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import RefreshIcon from '@mui/icons-material/Refresh';
import PhonelinkOffIcon from '@mui/icons-material/PhonelinkOff';
import ReplyIcon from '@mui/icons-material/Reply';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SimulatorConversationItem } from '@atendi/shared';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { errorText, toastError } from '../../api/toasts';
import { FormText } from '../../components/form-text';
import { QUICK_REACTIONS } from '../../lib/reactions';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { readStorage, storageKeys, writeStorage } from '../../lib/storage';
import { useConnections } from '../../api/queries/connections';
import { ConnectionStatusLabel, formatLastUpdate } from './connection-status';
import {
  connectionsKeys,
  fetchSimulatorConversation,
  simulatorAck,
  simulatorDisconnect,
  simulatorInbound,
  simulatorReaction,
  simulatorScan,
  simulatorTyping,
} from './connections.api';
import { FieldRow } from '../../components/field-row';
import { DialogFrame, DialogView } from '../../components/dialog-frame';

// The conversation follows the platform's sends while the panel is open.
const CONVERSATION_REFRESH_MS = 2000;
// Message acks the virtual phone can report (SPEC §4 Message ack).
const DELIVERED = 3;
const READ = 4;

// The rules of simulatorInboundSchema (packages/shared), with messages that are i18n keys.
const phoneRule = /^\+?\d{5,20}$/;
const inboundSchema = z.object({
  from: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .regex(phoneRule, 'connections.simulator.fromInvalid'),
  name: z.string().trim().max(100, 'connections.simulator.nameTooLong'),
  body: z.string().trim().min(1, 'validation.required'),
});
type InboundValues = z.infer<typeof inboundSchema>;

// The contact the phone writes as is kept per connection, so the panel opens again as that contact.
type RememberedContact = { from: string; name: string };
const readContacts = (): Record<string, RememberedContact> => {
  try {
    const parsed: unknown = JSON.parse(readStorage(storageKeys.simulatorContacts) ?? '{}');
    return parsed && typeof parsed === 'object'
      ? (parsed as Record<string, RememberedContact>)
      : {};
  } catch {
    return {};
  }
};
const rememberedContact = (connectionId: number): RememberedContact => {
  const saved = readContacts()[connectionId];
  return {
    from: typeof saved?.from === 'string' ? saved.from : '',
    name: typeof saved?.name === 'string' ? saved.name : '',
  };
};
const rememberContact = (connectionId: number, contact: RememberedContact) =>
  writeStorage(
    storageKeys.simulatorContacts,
    JSON.stringify({ ...readContacts(), [connectionId]: contact }),
  );

// A virtual-phone action: then shows what the platform sent since (failures toast on their own).
const useSimulatorAction = <T,>(
  connectionId: number,
  run: (input: T) => Promise<unknown>,
  { doneKey, onDone }: { doneKey?: string; onDone?: (input: T) => void } = {},
) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (_data, input) => {
      onDone?.(input);
      if (doneKey) toast.success(t(doneKey));
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: connectionsKeys.conversation(connectionId) }),
  });
};

// The contact's reaction to a message of the chat: the quick reactions WhatsApp offers; the one the
// contact already has takes it back.
const ReactButton = ({
  text,
  current,
  disabled,
  onReact,
}: {
  text: string;
  current: string;
  disabled: boolean;
  onReact: (emoji: string) => void;
}) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (emoji: string) => {
    setAnchor(null);
    onReact(emoji === current ? '' : emoji);
  };
  return (
    <>
      <Tooltip title={t('connections.simulator.react')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('connections.simulator.reactOf', { body: text })}
            aria-haspopup="menu"
            disabled={disabled}
            onClick={(event) => setAnchor(event.currentTarget)}
          >
            <AddReactionOutlinedIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { sx: { display: 'flex' } } }}
      >
        {QUICK_REACTIONS.map((emoji) => (
          <MenuItem
            key={emoji}
            selected={emoji === current}
            aria-label={
              emoji === current
                ? t('connections.simulator.removeReaction', { emoji })
                : t('connections.simulator.reactWith', { emoji })
            }
            onClick={() => choose(emoji)}
            sx={{ fontSize: 20, px: 1 }}
          >
            {emoji}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

// One message of the chat: the contact's own on the right, the platform's on the left with the acks
// the phone can report for it. The contact can react to either (onReact is absent in a group's chat,
// where the phone does not know which member would react), and each side's reaction shows under it.
const ConversationItem = ({
  message,
  isBusy,
  onAck,
  onReact,
}: {
  message: SimulatorConversationItem;
  isBusy: boolean;
  onAck: (ack: number) => void;
  onReact?: (emoji: string) => void;
}) => {
  const { t } = useTranslation();
  const text = message.body || message.fileName || t('connections.simulator.media');
  const date = formatLastUpdate(message.createdAt);
  const fromContact = message.direction === 'in';
  const reactions = [
    message.contactReaction &&
      t('connections.simulator.contactReaction', { emoji: message.contactReaction }),
    message.platformReaction &&
      t('connections.simulator.platformReaction', { emoji: message.platformReaction }),
  ].filter(Boolean);
  const react = onReact && (
    <ReactButton
      text={text}
      current={message.contactReaction}
      disabled={isBusy}
      onReact={onReact}
    />
  );
  // Room on the right for the buttons beside the text.
  const buttons = (fromContact ? 0 : 2) + (react ? 1 : 0);
  return (
    <ListItem
      data-direction={message.direction}
      secondaryAction={
        buttons === 0 ? undefined : (
          <Stack direction="row" spacing={0.5}>
            {react}
            {!fromContact && (
              <>
                <Tooltip title={t('connections.simulator.markDelivered')}>
                  <span>
                    <IconButton
                      size="small"
                      aria-label={t('connections.simulator.markDeliveredOf', { body: text })}
                      disabled={isBusy || message.ack >= DELIVERED}
                      onClick={() => onAck(DELIVERED)}
                    >
                      <DoneAllIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={t('connections.simulator.markRead')}>
                  <span>
                    <IconButton
                      size="small"
                      aria-label={t('connections.simulator.markReadOf', { body: text })}
                      disabled={isBusy || message.ack >= READ}
                      onClick={() => onAck(READ)}
                    >
                      <MarkEmailReadIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </>
            )}
          </Stack>
        )
      }
      sx={{
        my: 0.5,
        borderRadius: 1,
        width: 'auto',
        maxWidth: '90%',
        ...(fromContact
          ? { ml: 'auto', bgcolor: 'action.selected', textAlign: 'right' }
          : { mr: 'auto', bgcolor: 'action.hover' }),
        ...(buttons > 0 && { pr: 2 + buttons * 4.5 }),
      }}
    >
      {/* Divs, not spans: the message's text is the item's first span. */}
      <Box sx={{ minWidth: 0 }}>
        {message.forwarded && (
          <Typography
            component="div"
            variant="caption"
            sx={{ color: 'text.secondary', fontStyle: 'italic' }}
          >
            <ReplyIcon sx={{ fontSize: 14, verticalAlign: 'middle', transform: 'scaleX(-1)' }} />{' '}
            {t('connections.simulator.forwarded')}
          </Typography>
        )}
        <ListItemText
          primary={text}
          secondary={
            fromContact
              ? t('connections.simulator.inboundMeta', { from: message.contact, date })
              : t('connections.simulator.outboundMeta', {
                  to: message.contact,
                  ack: t(`connections.simulator.acks.${message.ack}`, {
                    defaultValue: String(message.ack),
                  }),
                  date,
                })
          }
          slotProps={{ primary: { sx: { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' } } }}
        />
        {reactions.map((reaction) => (
          <Typography key={reaction} component="div" variant="caption">
            {reaction}
          </Typography>
        ))}
      </Box>
    </ListItem>
  );
};

const SimulatorPhoneBody = ({ connectionId }: { connectionId: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const connection = useConnections().data?.find((row) => row.id === connectionId);
  const status = connection?.status;
  const form = useForm<InboundValues>({
    resolver: zodResolver(inboundSchema),
    defaultValues: { ...rememberedContact(connectionId), body: '' },
  });
  const {
    control,
    handleSubmit,
    resetField,
    formState: { isSubmitting },
  } = form;
  const typedFrom = useWatch({ control, name: 'from' });
  const typedName = useWatch({ control, name: 'name' });
  const from = typedFrom.trim();
  // The chat with the contact the phone writes as (every chat while no number is typed).
  const settledFrom = useDebouncedValue(from);
  const chatWith = phoneRule.test(settledFrom) ? settledFrom : undefined;
  const conversation = useQuery({
    queryKey: connectionsKeys.conversation(connectionId, chatWith),
    queryFn: () => fetchSimulatorConversation(connectionId, chatWith),
    refetchInterval: CONVERSATION_REFRESH_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
  useEffect(
    () => rememberContact(connectionId, { from: typedFrom, name: typedName }),
    [connectionId, typedFrom, typedName],
  );

  const [isTyping, setTyping] = useState(false);
  const refreshConversation = () =>
    queryClient.invalidateQueries({ queryKey: connectionsKeys.conversation(connectionId) });

  const scan = useSimulatorAction(connectionId, () => simulatorScan(connectionId), {
    doneKey: 'connections.simulator.scanned',
  });
  const ack = useSimulatorAction(connectionId, ({ id, value }: { id: string; value: number }) =>
    simulatorAck(connectionId, id, value),
  );
  const reaction = useSimulatorAction(
    connectionId,
    (input: { from: string; id: string; emoji: string }) => simulatorReaction(connectionId, input),
  );
  const typing = useSimulatorAction(
    connectionId,
    (isOn: boolean) => simulatorTyping(connectionId, from, isOn),
    { onDone: setTyping },
  );
  const disconnect = useSimulatorAction(connectionId, () => simulatorDisconnect(connectionId), {
    doneKey: 'connections.simulator.disconnected',
  });

  const onSend = async (values: InboundValues) => {
    try {
      await simulatorInbound(connectionId, {
        from: values.from,
        ...(values.name ? { name: values.name } : {}),
        body: values.body,
      });
      toast.success(t('connections.simulator.sent'));
      resetField('body');
    } catch (error) {
      toastError(error);
    } finally {
      void refreshConversation();
    }
  };

  const canScan = status === 'qrcode' || status === 'PAIRING';
  const messages = conversation.data ?? [];
  const conversationTitle = chatWith
    ? t('connections.simulator.conversationWith', { number: chatWith })
    : t('connections.simulator.conversation');

  return (
    <DialogView title={t('connections.simulator.title', { name: connection?.name ?? '' })}>
      <Stack spacing={2.5}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{
            alignItems: { xs: 'flex-start', sm: 'center' },
          }}
        >
          <Box sx={{ flexGrow: 1 }}>
            {status && <ConnectionStatusLabel status={status} />}
            {connection?.number && (
              <Typography
                variant="body2"
                sx={{
                  color: 'text.secondary',
                }}
              >
                {t('connections.simulator.number', { number: connection.number })}
              </Typography>
            )}
          </Box>
          <Tooltip title={canScan ? '' : t('connections.simulator.scanUnavailable')}>
            <span>
              <Button
                variant="contained"
                startIcon={<QrCodeScannerIcon />}
                disabled={!canScan || scan.isPending}
                onClick={() => scan.mutate(undefined)}
              >
                {t('connections.simulator.scan')}
              </Button>
            </span>
          </Tooltip>
          {/* Only a linked phone can unlink itself. */}
          {status === 'CONNECTED' && (
            <Button
              color="error"
              startIcon={<PhonelinkOffIcon />}
              disabled={disconnect.isPending}
              onClick={() => disconnect.mutate(undefined)}
            >
              {t('connections.simulator.disconnect')}
            </Button>
          )}
        </Stack>

        <Divider />
        <Stack
          component="form"
          noValidate
          spacing={2}
          aria-label={t('connections.simulator.inboundTitle')}
          onSubmit={handleSubmit(onSend)}
        >
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('connections.simulator.inboundTitle')}
          </Typography>
          <FieldRow>
            <FormText
              form={form}
              name="from"
              type="tel"
              label={t('connections.simulator.from')}
              placeholder="5215512345678"
            />
            <FormText form={form} name="name" label={t('connections.simulator.name')} />
          </FieldRow>
          <FormText
            form={form}
            name="body"
            label={t('connections.simulator.body')}
            multiline
            minRows={2}
            maxRows={6}
          />
          <Stack
            direction="row"
            spacing={2}
            sx={{
              alignItems: 'center',
              justifyContent: 'space-between',
            }}
          >
            <FormControlLabel
              control={
                <Switch
                  checked={isTyping}
                  disabled={!phoneRule.test(from) || typing.isPending}
                  onChange={(event) => typing.mutate(event.target.checked)}
                />
              }
              label={t('connections.simulator.typing')}
            />
            <Button
              type="submit"
              variant="contained"
              disabled={isSubmitting}
              startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {t('connections.simulator.send')}
            </Button>
          </Stack>
        </Stack>

        <Divider />
        <Stack spacing={1}>
          <Stack
            direction="row"
            sx={{
              alignItems: 'center',
            }}
          >
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flexGrow: 1 }}>
              {conversationTitle}
            </Typography>
            <Tooltip title={t('connections.simulator.refresh')}>
              <IconButton
                aria-label={t('connections.simulator.refresh')}
                onClick={() => void refreshConversation()}
              >
                <RefreshIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
          {conversation.isError && messages.length === 0 ? (
            <Alert severity="warning">{errorText(conversation.error)}</Alert>
          ) : conversation.isPending ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
              <CircularProgress size={24} aria-label={t('app.loading')} />
            </Box>
          ) : messages.length === 0 ? (
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
              }}
            >
              {chatWith
                ? t('connections.simulator.noConversationWith', { number: chatWith })
                : t('connections.simulator.noConversation')}
            </Typography>
          ) : (
            <List
              dense
              disablePadding
              aria-label={conversationTitle}
              sx={{ display: 'flex', flexDirection: 'column' }}
            >
              {messages.map((message) => (
                <ConversationItem
                  key={message.id}
                  message={message}
                  isBusy={ack.isPending || reaction.isPending}
                  onAck={(value) => ack.mutate({ id: message.id, value })}
                  onReact={
                    phoneRule.test(message.contact)
                      ? (emoji) => reaction.mutate({ from: message.contact, id: message.id, emoji })
                      : undefined
                  }
                />
              ))}
            </List>
          )}
        </Stack>
      </Stack>
    </DialogView>
  );
};

// The simulator's virtual phone: pairs, writes as a contact, and acknowledges what it received.
export const SimulatorPhoneDialog = ({
  open,
  connectionId,
  sessionKey,
  onClose,
}: {
  open: boolean;
  connectionId: number | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
    {connectionId !== null && <SimulatorPhoneBody connectionId={connectionId} />}
  </DialogFrame>
);
