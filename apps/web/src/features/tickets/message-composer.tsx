import { useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControlLabel,
  IconButton,
  OutlinedInput,
  Stack,
  Switch,
  Tooltip,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import CloseIcon from '@mui/icons-material/Close';
import MicIcon from '@mui/icons-material/Mic';
import QuickreplyOutlinedIcon from '@mui/icons-material/QuickreplyOutlined';
import SendIcon from '@mui/icons-material/Send';
import TextSnippetOutlinedIcon from '@mui/icons-material/TextSnippetOutlined';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_MEDIA_MAX_BYTES,
  MESSAGE_MEDIA_MAX_FILES,
  messageMediaExtensions,
  type ChatMessageView,
  type QuickMessageView,
  type ReplyWindow,
  type TicketView,
} from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { ERROR_TOAST_MS, TOAST_MS } from '../../api/toasts';
import { lazyDialog } from '../../lib/lazy-component';
import {
  fetchQuickMessageFile,
  useSendMedia,
  useSuggestReply,
  useTypingSignal,
} from './composer-api';
import { AttachmentsPreview } from './composer-attachments';
import { useAudioRecorder, type RecorderFailure } from './composer-audio';
import { EmojiButton } from './composer-emoji';
import { QUICK_ANSWERS_LIST_ID, QuickAnswersList, useQuickAnswers } from './composer-quick-answers';
import { RecordingBar } from './composer-recorder';
import { QuotedMessage } from './message-bubble';
import { createSendKeys } from './send-keys';
import { formatTime, readSignOption, signedBody, writeSignOption } from './ticket-format';
import { useReplyWindow, useSendMessage } from './tickets.api';

const TemplateSendDialog = lazyDialog(() =>
  import('./composer-template-dialog').then((module) => module.TemplateSendDialog),
);

// SPEC §9: the composer grows up to 5 lines.
const MAX_ROWS = 5;

// The composer says when the window closes once less than this remains.
const WINDOW_HINT_MS = 60 * 60 * 1000;

type WindowState =
  | { kind: 'none' }
  | { kind: 'open'; closesAt: string | null; closesSoon: boolean }
  | { kind: 'closed'; neverWrote: boolean };

// Meta's 24-hour rule on Cloud API tickets (null elsewhere: no rule), told at the moment: the composer
// renders again when less than an hour remains and when the window closes.
const useWindowState = (replyWindow: ReplyWindow | null): WindowState => {
  const [now, setNow] = useState(() => Date.now());
  const closesAt = replyWindow?.closesAt ? Date.parse(replyWindow.closesAt) : null;
  const isOpen = Boolean(replyWindow?.open);
  useEffect(() => {
    if (!isOpen || closesAt === null) return;
    const next = [closesAt - WINDOW_HINT_MS, closesAt].find((at) => at > now);
    if (next === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, next - Date.now()));
    return () => clearTimeout(timer);
  }, [isOpen, closesAt, now]);
  if (!replyWindow) return { kind: 'none' };
  if (isOpen && (closesAt === null || closesAt > now))
    return {
      kind: 'open',
      closesAt: replyWindow.closesAt,
      closesSoon: closesAt !== null && closesAt - now <= WINDOW_HINT_MS,
    };
  return { kind: 'closed', neverWrote: replyWindow.closesAt === null };
};

// In place of the text box while the window is closed: why, and the one thing that can be sent.
const ClosedWindowBar = ({ ticket, neverWrote }: { ticket: TicketView; neverWrote: boolean }) => {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState({ open: false, sessionKey: 0 });
  return (
    <Box
      sx={{
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        flexShrink: 0,
        p: 1,
      }}
    >
      <Alert
        severity="warning"
        role="status"
        action={
          <Button
            color="inherit"
            size="small"
            variant="outlined"
            startIcon={<TextSnippetOutlinedIcon />}
            sx={{ whiteSpace: 'nowrap' }}
            onClick={() =>
              setDialog((current) => ({ open: true, sessionKey: current.sessionKey + 1 }))
            }
          >
            {t('tickets.composer.sendTemplate')}
          </Button>
        }
      >
        {neverWrote ? t('tickets.composer.windowNeverOpened') : t('tickets.composer.windowClosed')}
      </Alert>
      <TemplateSendDialog
        open={dialog.open}
        ticket={ticket}
        sessionKey={dialog.sessionKey}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
    </Box>
  );
};

const failureText: Record<RecorderFailure, string> = {
  denied: 'tickets.composer.audioDenied',
  unavailable: 'tickets.composer.audioUnavailable',
  tooShort: 'tickets.composer.audioTooShort',
  failed: 'tickets.composer.audioFailed',
};

// Where the agent writes: text, emoji, files, voice notes and "/" quick answers.
export const MessageComposer = ({
  ticket,
  replyTo,
  isCompact = false,
  onReplyChange,
}: {
  ticket: TicketView;
  replyTo: ChatMessageView | null;
  // Little room (a phone, the chat beside the contact drawer): the text gets a line of its own.
  isCompact?: boolean;
  onReplyChange: (message: ChatMessageView | null) => void;
}) => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  // Quick answers' attachments still downloading: sending waits for them.
  const [loadingFiles, setLoadingFiles] = useState(0);
  // A quick answer's file arrives after a download: it is added to the files as they are then.
  const filesRef = useRef(files);
  useEffect(() => {
    filesRef.current = files;
  }, [files]);
  const [isSigned, setIsSigned] = useState(readSignOption);
  const send = useSendMessage(ticket.id);
  // A message tried again after a failure goes with the key of its first try (send-keys.ts).
  const [sendKeys] = useState(createSendKeys);
  const sendMedia = useSendMedia(ticket.id);
  const typed = useTypingSignal(ticket.id);
  // Issue 40: "Suggest reply" where the company's plan has AI.
  const canSuggest = Boolean(user.company?.plan?.useOpenAi);
  const suggest = useSuggestReply(ticket.id);
  // The knowledge base documents the last draft was written from, shown under the text until sent.
  const [sources, setSources] = useState<string[]>([]);
  const windowState = useWindowState(useReplyWindow(ticket.id));
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const fileInputRef = useRef<HTMLInputElement | null>(null);
  // Where the caret goes once React has rendered a text changed from code (emoji, quick answer).
  const caretRef = useRef<number | null>(null);

  useEffect(() => {
    const input = inputRef.current;
    if (caretRef.current === null || !input) return;
    input.focus();
    input.setSelectionRange(caretRef.current, caretRef.current);
    caretRef.current = null;
  }, [text]);

  const replaceText = (next: string, caret = next.length) => {
    caretRef.current = caret;
    setText(next);
  };

  const sign = (body: string) => (isSigned && body ? signedBody(user.name, body) : body);

  const sendFiles = (chosen: File[], body: string) => {
    const quoted = replyTo;
    const caption = sign(body);
    const key = sendKeys.keyFor(
      JSON.stringify([
        ticket.id,
        caption,
        quoted?.id ?? null,
        chosen.map((file) => [file.name, file.size, file.lastModified]),
      ]),
    );
    return sendMedia.mutateAsync(
      { files: chosen, body: caption, key, ...(quoted ? { quotedMsg: quoted.id } : {}) },
      {
        onSuccess: () => {
          sendKeys.sent(key);
          if (quoted) onReplyChange(null);
        },
      },
    );
  };

  const recorder = useAudioRecorder({
    onRecorded: (file) => sendFiles([file], ''),
    onFailure: (reason) => {
      const message = t(failureText[reason]);
      if (reason === 'tooShort') toast.info(message, { autoClose: TOAST_MS });
      else toast.error(message, { autoClose: ERROR_TOAST_MS });
    },
  });

  const attachFiles = (chosen: File[]) => {
    const tooLarge = chosen.filter((file) => file.size > MESSAGE_MEDIA_MAX_BYTES);
    if (tooLarge.length)
      toast.error(t('errors.ERR_UPLOAD_TOO_LARGE'), { autoClose: ERROR_TOAST_MS });
    const accepted = chosen.filter((file) => file.size <= MESSAGE_MEDIA_MAX_BYTES);
    if (accepted.length > MESSAGE_MEDIA_MAX_FILES - filesRef.current.length)
      toast.error(t('tickets.composer.tooManyFiles', { count: MESSAGE_MEDIA_MAX_FILES }), {
        autoClose: ERROR_TOAST_MS,
      });
    setFiles((current) => [...current, ...accepted].slice(0, MESSAGE_MEDIA_MAX_FILES));
  };

  // An answer with a file sends that file, its text going as the caption.
  const attachQuickAnswerFile = (answer: QuickMessageView) => {
    setLoadingFiles((count) => count + 1);
    fetchQuickMessageFile(answer)
      .then((file) => attachFiles([file]))
      .catch(() =>
        toast.error(t('tickets.composer.quickAnswerFileFailed', { name: answer.mediaName }), {
          autoClose: ERROR_TOAST_MS,
        }),
      )
      .finally(() => setLoadingFiles((count) => count - 1));
  };

  // Text put where the caret is (or over the selection): an emoji, an answer from the button's list.
  const insertText = (inserted: string) => {
    const input = inputRef.current;
    const start = input?.selectionStart ?? text.length;
    const end = input?.selectionEnd ?? text.length;
    replaceText(text.slice(0, start) + inserted + text.slice(end), start + inserted.length);
  };

  // A "/" search gives way to the answer; from the button's list it joins what is written.
  const quickAnswers = useQuickAnswers(text, (answer: QuickMessageView) => {
    if (text.startsWith('/')) replaceText(answer.message);
    else insertText(answer.message);
    if (answer.isMedia && answer.mediaUrl) attachQuickAnswerFile(answer);
  });

  const isBusy = sendMedia.isPending || recorder.state !== 'idle' || loadingFiles > 0;

  // The draft goes into the text box for the agent to edit, never sent from here: it replaces an
  // empty box, and goes below what the agent already wrote (nothing typed is lost).
  const suggestReply = () =>
    suggest.mutate(undefined, {
      onSuccess: (suggestion) => {
        const current = text.trimEnd();
        replaceText(current ? `${current}\n\n${suggestion.text}` : suggestion.text);
        setSources([...new Set(suggestion.passages.map((passage) => passage.documentName))]);
      },
    });

  // SPEC §5: an empty or whitespace-only message does nothing.
  const submit = () => {
    if (isBusy) return;
    const body = text.trim();
    if (files.length) {
      void sendFiles(files, body)
        .then(() => {
          setFiles([]);
          setText('');
        })
        // The failure toasts; the files and text stay for another try.
        .catch(() => undefined);
      return;
    }
    if (!body) return;
    const quoted = replyTo;
    const signed = sign(body);
    const key = sendKeys.keyFor(JSON.stringify([ticket.id, signed, quoted?.id ?? null]));
    setText('');
    setSources([]);
    onReplyChange(null);
    send.mutate(
      { body: signed, key, ...(quoted ? { quotedMsg: quoted.id } : {}) },
      {
        onSuccess: () => sendKeys.sent(key),
        // The failure toasts; give the text back so nothing typed is lost.
        onError: () => {
          setText((current) => current || body);
          if (quoted) onReplyChange(quoted);
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (quickAnswers.onKeyDown(event)) {
      event.preventDefault();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    submit();
  };

  const addFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    // The same file may be chosen again after being removed.
    event.target.value = '';
    attachFiles(chosen);
  };

  const toggleSign = (isOn: boolean) => {
    setIsSigned(isOn);
    writeSignOption(isOn);
  };

  // As in WhatsApp: the microphone while there is nothing to send, the send button otherwise.
  const showsMic = text === '' && files.length === 0;

  // What was being written stays here until the contact writes again.
  if (windowState.kind === 'closed')
    return <ClosedWindowBar ticket={ticket} neverWrote={windowState.neverWrote} />;

  const tools = (
    <>
      <EmojiButton
        disabled={isBusy}
        onPick={insertText}
        onClosed={() => inputRef.current?.focus()}
      />
      <IconButton
        aria-label={t('tickets.composer.attach')}
        disabled={isBusy}
        onClick={() => fileInputRef.current?.click()}
      >
        <AttachFileIcon />
      </IconButton>
      <IconButton
        aria-label={t('tickets.composer.quickAnswers')}
        aria-expanded={quickAnswers.isOpen}
        aria-controls={quickAnswers.isOpen ? QUICK_ANSWERS_LIST_ID : undefined}
        disabled={isBusy}
        onClick={quickAnswers.toggle}
      >
        <QuickreplyOutlinedIcon />
      </IconButton>
      {canSuggest && (
        <Tooltip title={t('tickets.composer.suggest')}>
          <span>
            {suggest.isPending ? (
              <Box sx={{ p: 1, display: 'grid', placeItems: 'center' }}>
                <CircularProgress size={24} aria-label={t('tickets.composer.suggesting')} />
              </Box>
            ) : (
              <IconButton
                aria-label={t('tickets.composer.suggest')}
                disabled={isBusy}
                onClick={suggestReply}
              >
                <AutoAwesomeIcon />
              </IconButton>
            )}
          </span>
        </Tooltip>
      )}
      <input
        ref={fileInputRef}
        type="file"
        multiple
        hidden
        accept={messageMediaExtensions.join(',')}
        data-testid="composer-file-input"
        onChange={addFiles}
      />
      <Tooltip title={t('tickets.composer.signHint')} describeChild>
        <FormControlLabel
          sx={{ mx: 0.5, mb: 0.5, flexShrink: 0 }}
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
    </>
  );
  // Not a TextField (see the inbox's search field in ticket-list-pane.tsx).
  const input = (
    <OutlinedInput
      fullWidth
      multiline
      maxRows={MAX_ROWS}
      size="small"
      placeholder={t('tickets.composer.placeholder')}
      value={text}
      disabled={sendMedia.isPending}
      inputRef={inputRef}
      onChange={(event) => {
        setText(event.target.value);
        if (event.target.value.trim()) typed();
      }}
      onKeyDown={onKeyDown}
      slotProps={{
        input: {
          'aria-label': t('tickets.composer.label'),
          'aria-autocomplete': 'list',
          'aria-controls': quickAnswers.isOpen ? QUICK_ANSWERS_LIST_ID : undefined,
          'aria-activedescendant': quickAnswers.activeId,
        },
      }}
    />
  );
  const sendButton = sendMedia.isPending ? (
    <Box sx={{ p: 1, display: 'grid', placeItems: 'center' }}>
      <CircularProgress size={24} aria-label={t('tickets.composer.sending')} />
    </Box>
  ) : showsMic ? (
    <IconButton
      color="primary"
      aria-label={t('tickets.composer.record')}
      onClick={() => void recorder.start()}
    >
      <MicIcon />
    </IconButton>
  ) : (
    <IconButton
      color="primary"
      aria-label={t('tickets.composer.send')}
      disabled={!text.trim() && files.length === 0}
      onClick={submit}
    >
      <SendIcon />
    </IconButton>
  );

  return (
    <Box
      sx={{
        position: 'relative',
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        flexShrink: 0,
      }}
    >
      <QuickAnswersList quickAnswers={quickAnswers} />
      {windowState.kind === 'open' && windowState.closesSoon && (
        <Typography
          variant="caption"
          component="p"
          sx={{
            color: 'text.secondary',
            px: 1.5,
            pt: 0.75,
            m: 0,
          }}
        >
          {t('tickets.composer.windowClosesAt', { time: formatTime(windowState.closesAt) })}
        </Typography>
      )}
      {replyTo && (
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'center',
            px: 1.5,
            pt: 1,
          }}
        >
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
      {sources.length > 0 && (
        <Tooltip title={sources.join(', ')}>
          <Typography
            variant="caption"
            component="p"
            data-testid="suggestion-sources"
            noWrap
            sx={{ color: 'text.secondary', px: 1.5, pt: 0.75, m: 0 }}
          >
            {t('tickets.composer.suggestionSources', { names: sources.join(', ') })}
          </Typography>
        </Tooltip>
      )}
      {files.length > 0 && (
        <AttachmentsPreview
          files={files}
          disabled={sendMedia.isPending}
          onRemove={(file) => setFiles((current) => current.filter((f) => f !== file))}
          onClear={() => setFiles([])}
        />
      )}
      <Stack
        direction="row"
        spacing={0.5}
        sx={{
          alignItems: 'flex-end',
          p: 1,
        }}
      >
        {recorder.state === 'idle' ? (
          isCompact ? (
            // Little room: the text and its send button on a line of their own, the tools below.
            <Stack sx={{ flex: 1, minWidth: 0 }}>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-end' }}>
                {input}
                {sendButton}
              </Stack>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                {tools}
              </Stack>
            </Stack>
          ) : (
            <>
              {tools}
              {input}
              {sendButton}
            </>
          )
        ) : (
          <RecordingBar
            state={recorder.state}
            seconds={recorder.seconds}
            onCancel={recorder.cancel}
            onSend={recorder.send}
          />
        )}
      </Stack>
    </Box>
  );
};
