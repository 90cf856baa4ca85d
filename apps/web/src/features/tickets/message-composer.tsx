import { useState, type KeyboardEvent } from 'react';
import {
  Box,
  FormControlLabel,
  IconButton,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import SendIcon from '@mui/icons-material/Send';
import { useTranslation } from 'react-i18next';
import type { ChatMessageView, TicketView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { QuotedMessage } from './message-bubble';
import { readSignOption, signedBody, writeSignOption } from './ticket-format';
import { useSendMessage } from './tickets.api';

// SPEC §9: the composer grows up to 5 lines.
const MAX_ROWS = 5;

// Where the agent writes. Emoji, attachments, audio and quick answers join the input row later.
export const MessageComposer = ({
  ticket,
  replyTo,
  onReplyChange,
}: {
  ticket: TicketView;
  replyTo: ChatMessageView | null;
  onReplyChange: (message: ChatMessageView | null) => void;
}) => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [text, setText] = useState('');
  const [isSigned, setIsSigned] = useState(readSignOption);
  const send = useSendMessage(ticket.id);

  // SPEC §5: an empty or whitespace-only message does nothing.
  const submit = () => {
    const body = text.trim();
    if (!body) return;
    const quoted = replyTo;
    setText('');
    onReplyChange(null);
    send.mutate(
      {
        body: isSigned ? signedBody(user.name, body) : body,
        ...(quoted ? { quotedMsg: quoted.id } : {}),
      },
      {
        // The failure toasts; give the text back so nothing typed is lost.
        onError: () => {
          setText((current) => current || body);
          if (quoted) onReplyChange(quoted);
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const toggleSign = (isOn: boolean) => {
    setIsSigned(isOn);
    writeSignOption(isOn);
  };

  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', flexShrink: 0 }}>
      {replyTo && (
        <Stack direction="row" spacing={1} alignItems="center" sx={{ px: 1.5, pt: 1 }}>
          <QuotedMessage message={replyTo} contactName={ticket.contact.name} sx={{ flex: 1 }} />
          <IconButton
            size="small"
            aria-label={t('tickets.composer.cancelReply')}
            onClick={() => onReplyChange(null)}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </Stack>
      )}
      <Stack direction="row" spacing={1} alignItems="flex-end" sx={{ p: 1 }}>
        <Tooltip title={t('tickets.composer.signHint')} describeChild>
          <FormControlLabel
            sx={{ mx: 0, mb: 0.5, flexShrink: 0 }}
            control={
              <Switch
                size="small"
                checked={isSigned}
                onChange={(event) => toggleSign(event.target.checked)}
              />
            }
            label={<Typography variant="body2">{t('tickets.composer.sign')}</Typography>}
          />
        </Tooltip>
        <TextField
          fullWidth
          multiline
          maxRows={MAX_ROWS}
          size="small"
          placeholder={t('tickets.composer.placeholder')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          slotProps={{ htmlInput: { 'aria-label': t('tickets.composer.label') } }}
        />
        <IconButton
          color="primary"
          aria-label={t('tickets.composer.send')}
          disabled={!text.trim()}
          onClick={submit}
        >
          <SendIcon />
        </IconButton>
      </Stack>
    </Box>
  );
};
