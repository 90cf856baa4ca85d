import { useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  Checkbox,
  IconButton,
  Link,
  Menu,
  MenuItem,
  Paper,
  Stack,
  Tooltip,
  Typography,
  type SxProps,
  type Theme,
} from '@mui/material';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import AddReactionOutlinedIcon from '@mui/icons-material/AddReactionOutlined';
import BlockIcon from '@mui/icons-material/Block';
import CallIcon from '@mui/icons-material/Call';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import DoneIcon from '@mui/icons-material/Done';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import ReplyIcon from '@mui/icons-material/Reply';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_FORWARD_MAX,
  type ChatMessageView,
  type MessageReactionView,
  type MessageView,
} from '@atendi/shared';
import { WhatsappText } from '../../components/whatsapp-text';
import { QUICK_REACTIONS } from '../../lib/reactions';
import { EmojiPickerPopover } from './composer-emoji';
import { formatTime, parseLocation, parseVcards } from './ticket-format';

const READ_BLUE = '#34b7f1';

const ackStates = [
  { key: 'pending', Icon: AccessTimeIcon },
  { key: 'sent', Icon: DoneIcon },
  { key: 'delivered', Icon: DoneAllIcon },
  { key: 'read', Icon: DoneAllIcon },
] as const;

// SPEC §4 Message ack: 0 waits to be sent, 1-2 sent, 3 delivered, 4 and 5 read.
const ackStateOf = (ack: number) => ackStates[ack <= 0 ? 0 : ack <= 2 ? 1 : ack === 3 ? 2 : 3];

const AckIcon = ({ ack }: { ack: number }) => {
  const { t } = useTranslation();
  const { key, Icon } = ackStateOf(ack);
  const label = t(`tickets.ack.${key}`);
  // The title attribute gives the mouse a tooltip; the icon's own title names it for screen readers.
  return (
    <Box component="span" title={label} sx={{ display: 'inline-flex' }}>
      <Icon
        sx={{ fontSize: 16, color: key === 'read' ? READ_BLUE : undefined }}
        titleAccess={label}
      />
    </Box>
  );
};

// Written by an AI agent (SPEC §3 Prompt), not by a person.
const AgentBadge = () => {
  const { t } = useTranslation();
  const label = t('tickets.message.byAgent');
  return (
    <Tooltip title={label}>
      <Box component="span" sx={{ display: 'inline-flex' }}>
        <SmartToyOutlinedIcon sx={{ fontSize: 16 }} titleAccess={label} />
      </Box>
    </Tooltip>
  );
};

// What a message without text is called where only a few lines fit (quotes); its text keeps the
// WhatsApp formatting.
const useMessageSummary = () => {
  const { t } = useTranslation();
  return (message: MessageView): ReactNode => {
    const body = message.body.trim();
    if (body) return <WhatsappText text={body} />;
    return (
      message.mediaName ||
      (message.mediaType === 'chat' ? '' : t(`tickets.media.${message.mediaType}`))
    );
  };
};

export const QuotedMessage = ({
  message,
  contactName,
  sx,
}: {
  message: MessageView;
  contactName: string;
  sx?: SxProps<Theme>;
}) => {
  const { t } = useTranslation();
  const summaryOf = useMessageSummary();
  return (
    <Box
      data-testid="quoted-message"
      sx={[
        {
          borderLeft: 4,
          borderColor: message.fromMe ? 'primary.main' : 'secondary.main',
          bgcolor: 'action.hover',
          borderRadius: '6px',
          px: 1,
          py: 0.5,
          minWidth: 0,
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>
        {message.fromMe ? t('tickets.message.you') : contactName}
      </Typography>
      <Typography
        variant="body2"
        sx={{
          color: 'text.secondary',
          display: '-webkit-box',
          WebkitLineClamp: 3,
          WebkitBoxOrient: 'vertical',
          overflow: 'hidden',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {message.isDeleted ? t('tickets.message.deleted') : summaryOf(message)}
      </Typography>
    </Box>
  );
};

const InfoBlock = ({ icon, children }: { icon: ReactNode; children: ReactNode }) => (
  <Stack
    direction="row"
    spacing={1}
    sx={{
      alignItems: 'flex-start',
      py: 0.5,
    }}
  >
    <Box sx={{ color: 'text.secondary', display: 'flex', pt: 0.25 }}>{icon}</Box>
    <Box sx={{ minWidth: 0 }}>{children}</Box>
  </Stack>
);

const mediaSx = { display: 'block', maxWidth: '100%', width: 280, borderRadius: 1 };

// The media part of a message; the body (a caption for files) is shown by the bubble.
const MessageMedia = ({
  message,
  onMediaLoad,
}: {
  message: ChatMessageView;
  onMediaLoad: () => void;
}) => {
  const { t } = useTranslation();
  const url = message.mediaUrl;
  // A received file that was not kept: the message says why instead of showing nothing.
  if (!url && message.mediaError)
    return (
      <InfoBlock icon={<ReportProblemOutlinedIcon fontSize="small" color="warning" />}>
        <Typography
          variant="body2"
          data-testid="media-not-stored"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t(`tickets.media.notStored.${message.mediaError}`, {
            kind: message.mediaName || t(`tickets.media.${message.mediaType}`),
          })}
        </Typography>
      </InfoBlock>
    );
  switch (message.mediaType) {
    case 'image':
      return url ? (
        <Link href={url} target="_blank" rel="noreferrer" sx={{ display: 'block', mb: 0.5 }}>
          <Box
            component="img"
            src={url}
            alt={message.mediaName || t('tickets.media.image')}
            onLoad={onMediaLoad}
            sx={{ ...mediaSx, maxHeight: 320, objectFit: 'cover' }}
          />
        </Link>
      ) : null;
    case 'audio':
      return url ? (
        <Box component="audio" controls preload="metadata" src={url} sx={{ maxWidth: '100%' }} />
      ) : null;
    case 'video':
      return url ? (
        <Box
          component="video"
          controls
          preload="metadata"
          src={url}
          onLoadedMetadata={onMediaLoad}
          sx={{ ...mediaSx, mb: 0.5 }}
        />
      ) : null;
    case 'application':
      return (
        <InfoBlock icon={<InsertDriveFileIcon fontSize="small" />}>
          {url ? (
            <Link href={url} target="_blank" rel="noreferrer" download={message.mediaName ?? true}>
              {message.mediaName || t('tickets.media.application')}
            </Link>
          ) : (
            <Typography variant="body2">
              {message.mediaName || t('tickets.media.application')}
            </Typography>
          )}
        </InfoBlock>
      );
    case 'locationMessage': {
      const location = parseLocation(message.body);
      return (
        <InfoBlock icon={<LocationOnIcon fontSize="small" />}>
          {location.details.map((line, index) => (
            <Typography key={index} variant="body2">
              {line}
            </Typography>
          ))}
          {location.mapUrl && (
            <Link href={location.mapUrl} target="_blank" rel="noreferrer" variant="body2">
              {t('tickets.message.openMap')}
            </Link>
          )}
        </InfoBlock>
      );
    }
    case 'vcard':
      return (
        <InfoBlock icon={<ContactPhoneIcon fontSize="small" />}>
          {parseVcards(message.body).map((card, index) => (
            <Box key={index}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {card.name || t('tickets.media.vcard')}
              </Typography>
              {card.numbers.map((number) => (
                <Typography key={number} variant="body2">
                  {number}
                </Typography>
              ))}
            </Box>
          ))}
        </InfoBlock>
      );
    case 'call_log':
      return (
        <InfoBlock icon={<CallIcon fontSize="small" />}>
          <Typography variant="body2">{message.body || t('tickets.media.call_log')}</Typography>
        </InfoBlock>
      );
    default:
      return null;
  }
};

// Transcripts longer than this start folded to a few lines, with "show more".
const TRANSCRIPT_FOLD = 280;

// What a voice note says (issue 40: written by the company's AI provider), under its player in
// smaller, muted text, so the chat can be read without playing it.
const VoiceTranscript = ({ text }: { text: string }) => {
  const { t } = useTranslation();
  const long = text.length > TRANSCRIPT_FOLD;
  const [open, setOpen] = useState(false);
  const folded = long && !open;
  return (
    <Box
      data-testid="voice-transcript"
      sx={{ mt: 0.5, pl: 1, borderLeft: 2, borderColor: 'divider', color: 'text.secondary' }}
    >
      <Typography variant="caption" component="div" sx={{ fontWeight: 600 }}>
        {t('tickets.message.transcript')}
      </Typography>
      <Typography
        variant="caption"
        component="div"
        sx={{
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          ...(folded
            ? {
                display: '-webkit-box',
                WebkitLineClamp: 3,
                WebkitBoxOrient: 'vertical',
                overflow: 'hidden',
              }
            : {}),
        }}
      >
        {text}
      </Typography>
      {long && (
        <Link
          component="button"
          type="button"
          variant="caption"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? t('tickets.message.transcriptLess') : t('tickets.message.transcriptMore')}
        </Link>
      )}
    </Box>
  );
};

// These kinds carry their whole content in the body, which MessageMedia already shows.
const bodyIsMedia = (message: MessageView) =>
  ['locationMessage', 'vcard', 'call_log'].includes(message.mediaType);

export type MessageActions = {
  canReply: boolean;
  onReply: (message: ChatMessageView) => void;
  onDelete: (message: ChatMessageView) => void;
  onRetry: (message: ChatMessageView) => void;
  retryingId: number | null;
  onMediaLoad: () => void;
  // Issue 39: the company's reaction ('' takes it back), offered where the chat can be answered.
  onReact: (message: ChatMessageView, emoji: string) => void;
  // Forwarding starts the chat's selection with the message (absent where the chat cannot forward).
  onForward?: (message: ChatMessageView) => void;
  // While messages are being chosen to forward: the checked ones, and how one is checked or not.
  selection: ReadonlySet<number> | null;
  onToggleSelected: (message: ChatMessageView) => void;
};

// The company's reaction on the message ('' none): WhatsApp keeps one per account, whoever chose it.
const companyReactionOf = (message: ChatMessageView) =>
  message.reactions.find((reaction) => reaction.fromMe)?.emoji ?? '';

// A reaction goes to WhatsApp as a message of its own about this one: not to a deleted message, nor
// to one of ours WhatsApp has not taken yet (ack 0; a received message also has ack 0).
const canReactTo = (message: ChatMessageView) =>
  !message.isDeleted && !(message.fromMe && message.ack === 0);

// The menu's first row: the quick reactions and "more", which opens the whole emoji picker.
const QUICK_ROW = QUICK_REACTIONS.length + 1;

const MessageMenu = ({
  message,
  actions,
}: {
  message: ChatMessageView;
  actions: MessageActions;
}) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [pickerAnchor, setPickerAnchor] = useState<HTMLElement | null>(null);
  const canReply = actions.canReply && !message.isDeleted;
  // DELETE /messages/{id} takes only messages sent from here.
  const canDelete = actions.canReply && message.fromMe && !message.isDeleted;
  const canReact = actions.canReply && canReactTo(message);
  const onForward = message.isDeleted ? undefined : actions.onForward;
  if (!canReply && !canDelete && !canReact && !onForward) return null;
  const run = (action: (message: ChatMessageView) => void) => () => {
    setAnchor(null);
    action(message);
  };
  const current = companyReactionOf(message);
  // Choosing the reaction the company already has takes it back, as WhatsApp does.
  const react = (emoji: string) => {
    setAnchor(null);
    setPickerAnchor(null);
    actions.onReact(message, emoji === current ? '' : emoji);
  };
  const quickSx = { justifyContent: 'center', px: 1, fontSize: 20, minHeight: 40 };
  return (
    <>
      <IconButton
        size="small"
        aria-label={t('tickets.message.options')}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ alignSelf: 'flex-start', opacity: { xs: 1, md: 0.4 }, '&:hover': { opacity: 1 } }}
      >
        <ExpandMoreIcon fontSize="small" />
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{
          // The reactions side by side on the first row, the other actions one per row below; the
          // arrow keys still go through them all in order.
          list: canReact
            ? { sx: { display: 'grid', gridTemplateColumns: `repeat(${QUICK_ROW}, auto)` } }
            : undefined,
        }}
      >
        {canReact &&
          QUICK_REACTIONS.map((emoji) => (
            <MenuItem
              key={emoji}
              selected={emoji === current}
              aria-label={
                emoji === current
                  ? t('tickets.message.removeReaction', { emoji })
                  : t('tickets.message.reactWith', { emoji })
              }
              onClick={() => react(emoji)}
              sx={quickSx}
            >
              {emoji}
            </MenuItem>
          ))}
        {canReact && (
          <MenuItem
            aria-label={t('tickets.message.moreReactions')}
            aria-haspopup="dialog"
            // The picker opens where the menu was, under the options button.
            onClick={() => {
              setAnchor(null);
              setPickerAnchor(anchor);
            }}
            sx={quickSx}
          >
            <AddReactionOutlinedIcon fontSize="small" />
          </MenuItem>
        )}
        {canReply && (
          <MenuItem onClick={run(actions.onReply)} sx={{ gridColumn: '1 / -1' }}>
            {t('tickets.message.reply')}
          </MenuItem>
        )}
        {onForward && (
          <MenuItem onClick={run(onForward)} sx={{ gridColumn: '1 / -1' }}>
            {t('tickets.message.forward')}
          </MenuItem>
        )}
        {canDelete && (
          <MenuItem onClick={run(actions.onDelete)} sx={{ gridColumn: '1 / -1' }}>
            {t('tickets.message.delete')}
          </MenuItem>
        )}
      </Menu>
      {canReact && (
        <EmojiPickerPopover
          anchor={pickerAnchor}
          label={t('tickets.message.reactionPicker')}
          placement="below"
          onPick={react}
          onClose={() => setPickerAnchor(null)}
        />
      )}
    </>
  );
};

// Who chose a reaction: the company's is named by the person who chose it ("you" when it came from
// the phone itself), the contact's or member's by their name or number.
const reactorName = (reaction: MessageReactionView, you: string, contactName: string) =>
  reaction.name ?? (reaction.fromMe ? you : contactName);

// The reactions over the bubble's bottom edge, as WhatsApp draws them: one pill per emoji (with how
// many chose it when more than one), naming who did on hover or a long press.
const MessageReactions = ({
  reactions,
  contactName,
  fromMe,
}: {
  reactions: MessageReactionView[];
  contactName: string;
  fromMe: boolean;
}) => {
  const { t } = useTranslation();
  const you = t('tickets.message.you');
  // Grouped by emoji in the order they were first chosen (reactions come oldest first).
  const groups = new Map<string, string[]>();
  for (const reaction of reactions)
    groups.set(reaction.emoji, [
      ...(groups.get(reaction.emoji) ?? []),
      reactorName(reaction, you, contactName),
    ]);
  return (
    <Stack
      direction="row"
      role="list"
      aria-label={t('tickets.message.reactions')}
      sx={{
        position: 'relative',
        mt: '-6px',
        mx: 1,
        gap: 0.5,
        alignSelf: fromMe ? 'flex-end' : 'flex-start',
      }}
    >
      {[...groups].map(([emoji, names]) => (
        <Tooltip key={emoji} title={names.join(', ')} enterTouchDelay={500}>
          <Box
            component="span"
            role="listitem"
            sx={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 0.25,
              px: 0.75,
              py: 0.125,
              borderRadius: '12px',
              bgcolor: 'background.paper',
              border: 1,
              borderColor: 'divider',
              boxShadow: '0 1px 0.5px rgba(11, 20, 26, 0.13)',
              fontSize: 14,
              lineHeight: 1.4,
              cursor: 'default',
            }}
          >
            {emoji}
            {names.length > 1 && (
              <Typography component="span" variant="caption" sx={{ color: 'text.secondary' }}>
                {names.length}
              </Typography>
            )}
          </Box>
        </Tooltip>
      ))}
    </Stack>
  );
};

// "Forwarded" over a forwarded message's content, as WhatsApp marks it.
const ForwardedMark = () => {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      spacing={0.5}
      sx={{ alignItems: 'center', color: 'text.secondary', mb: 0.25 }}
    >
      <ReplyIcon sx={{ fontSize: 16, transform: 'scaleX(-1)' }} aria-hidden />
      <Typography variant="caption" sx={{ fontStyle: 'italic' }}>
        {t('tickets.message.forwarded')}
      </Typography>
    </Stack>
  );
};

// The box that checks a message while forwarding: a deleted message cannot be forwarded, and no more
// than MESSAGE_FORWARD_MAX go at once.
const SelectBox = ({
  message,
  selection,
  onToggle,
}: {
  message: ChatMessageView;
  selection: ReadonlySet<number>;
  onToggle: (message: ChatMessageView) => void;
}) => {
  const { t } = useTranslation();
  const isChecked = selection.has(message.id);
  const isFull = selection.size >= MESSAGE_FORWARD_MAX;
  return (
    <Checkbox
      checked={isChecked}
      disabled={message.isDeleted || (!isChecked && isFull)}
      onChange={() => onToggle(message)}
      sx={{ p: 0.5, alignSelf: 'center' }}
      slotProps={{ input: { 'aria-label': t('tickets.message.select') } }}
    />
  );
};

export const MessageBubble = ({
  message,
  contactName,
  actions,
}: {
  message: ChatMessageView;
  contactName: string;
  actions: MessageActions;
}) => {
  const { t } = useTranslation();
  const { fromMe } = message;
  const { selection } = actions;
  const showsBody = message.body.trim() !== '' && !bodyIsMedia(message);
  const reactions = message.isDeleted ? [] : message.reactions;
  const isSelecting = selection !== null;
  return (
    <Stack
      direction="row"
      data-testid={`message-${message.id}`}
      // While forwarding, a click anywhere on the row checks the message; its box is the control.
      onClick={(event) => {
        if (isSelecting && !message.isDeleted && !(event.target instanceof HTMLInputElement))
          actions.onToggleSelected(message);
      }}
      sx={{
        alignItems: 'center',
        mb: reactions.length ? 1.5 : 0.75,
        cursor: isSelecting && !message.isDeleted ? 'pointer' : undefined,
      }}
    >
      {isSelecting && (
        <SelectBox message={message} selection={selection} onToggle={actions.onToggleSelected} />
      )}
      <Stack
        direction={fromMe ? 'row-reverse' : 'row'}
        spacing={0.5}
        sx={{
          flex: 1,
          minWidth: 0,
          alignItems: 'flex-start',
          // Links, players and menus wait while messages are being chosen.
          pointerEvents: isSelecting ? 'none' : undefined,
        }}
      >
        <Box
          sx={{
            maxWidth: { xs: '85%', md: '70%' },
            minWidth: 0,
            display: 'flex',
            flexDirection: 'column',
          }}
        >
          <Paper
            elevation={0}
            sx={(theme) => ({
              minWidth: 80,
              px: 1.25,
              pt: 0.75,
              pb: 0.5,
              borderRadius: '8px',
              bgcolor: fromMe
                ? theme.palette.mode === 'light'
                  ? '#d9fdd3'
                  : '#005c4b'
                : 'background.paper',
              // The corner nearest its sender, as chat apps draw it.
              borderTopRightRadius: fromMe ? '2px' : '8px',
              borderTopLeftRadius: fromMe ? '8px' : '2px',
              boxShadow: '0 1px 0.5px rgba(11, 20, 26, 0.13)',
            })}
          >
            {message.isForwarded && !message.isDeleted && <ForwardedMark />}
            {message.quotedMsg && (
              <QuotedMessage
                message={message.quotedMsg}
                contactName={contactName}
                sx={{ mb: 0.5 }}
              />
            )}
            {message.isDeleted && (
              <Stack
                direction="row"
                spacing={0.5}
                sx={{
                  alignItems: 'center',
                  color: 'text.secondary',
                }}
              >
                <BlockIcon sx={{ fontSize: 16 }} aria-hidden />
                <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
                  {t('tickets.message.deleted')}
                </Typography>
              </Stack>
            )}
            <Box
              sx={message.isDeleted ? { opacity: 0.6, textDecoration: 'line-through' } : undefined}
            >
              <MessageMedia message={message} onMediaLoad={actions.onMediaLoad} />
              {message.transcript && !message.isDeleted && (
                <VoiceTranscript text={message.transcript} />
              )}
              {showsBody && (
                <Typography
                  variant="body2"
                  component="div"
                  sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                >
                  <WhatsappText text={message.body} />
                </Typography>
              )}
            </Box>
            <Stack
              direction="row"
              spacing={0.5}
              sx={{
                alignItems: 'center',
                justifyContent: 'flex-end',
                color: 'text.secondary',
                mt: 0.25,
              }}
            >
              {message.isEdited && (
                <Typography variant="caption" sx={{ fontStyle: 'italic' }}>
                  {t('tickets.message.edited')}
                </Typography>
              )}
              {message.promptId !== null && <AgentBadge />}
              <Typography variant="caption">{formatTime(message.createdAt)}</Typography>
              {fromMe && <AckIcon ack={message.ack} />}
            </Stack>
            {message.error && (
              <Stack
                direction="row"
                spacing={0.5}
                sx={{
                  alignItems: 'center',
                  color: 'error.main',
                  mt: 0.5,
                }}
              >
                <ErrorOutlineIcon sx={{ fontSize: 18 }} aria-hidden />
                <Typography variant="caption" sx={{ flex: 1 }}>
                  {t('tickets.message.failed')}
                </Typography>
                <Button
                  size="small"
                  color="error"
                  disabled={actions.retryingId === message.id}
                  onClick={() => actions.onRetry(message)}
                >
                  {t('tickets.message.retry')}
                </Button>
              </Stack>
            )}
          </Paper>
          {reactions.length > 0 && (
            <MessageReactions reactions={reactions} contactName={contactName} fromMe={fromMe} />
          )}
        </Box>
        {!isSelecting && <MessageMenu message={message} actions={actions} />}
      </Stack>
    </Stack>
  );
};
