import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
  type ChipProps,
} from '@mui/material';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SendIcon from '@mui/icons-material/Send';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  estimateTokens,
  newestTurns,
  PROMPT_MAX_MESSAGES_LIMIT,
  SANDBOX_MAX_TURNS,
  SANDBOX_TURN_MAX,
  type PromptView,
  type SandboxChatResponse,
  type SandboxTurn,
  type Sentiment,
} from '@atendi/shared';
import { errorText } from '../../api/toasts';
import { sandboxChat } from './prompts.api';
import { DialogFrame, DialogView } from '../../components/dialog-frame';

// A customer's turn is typed here: far less than a turn may hold (SANDBOX_TURN_MAX).
const DRAFT_MAX_LENGTH = 4000;
const CONTACT_NAME_MAX_LENGTH = 100;

const sentimentColors: Record<Sentiment, ChipProps['color']> = {
  negativo: 'error',
  neutral: 'default',
  positivo: 'success',
};

const parseWindow = (value: string) => {
  const number = Number(value.trim());
  return /^\d+$/.test(value.trim()) && number >= 1 && number <= PROMPT_MAX_MESSAGES_LIMIT
    ? number
    : null;
};

const Turn = ({ turn }: { turn: SandboxTurn }) => {
  const { t } = useTranslation();
  const isUser = turn.role === 'user';
  return (
    <Stack
      sx={{
        alignItems: isUser ? 'flex-end' : 'flex-start',
        mb: 1,
      }}
    >
      <Typography
        variant="caption"
        sx={{
          color: 'text.secondary',
          px: 0.5,
        }}
      >
        {isUser ? t('prompts.sandbox.you') : t('prompts.sandbox.agent')}
      </Typography>
      <Paper
        elevation={0}
        sx={(theme) => ({
          maxWidth: '85%',
          px: 1.25,
          py: 0.75,
          borderRadius: '8px',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          bgcolor: isUser
            ? theme.palette.mode === 'light'
              ? '#d9fdd3'
              : '#005c4b'
            : 'background.paper',
          boxShadow: '0 1px 0.5px rgba(11, 20, 26, 0.13)',
        })}
      >
        <Typography variant="body2" component="div">
          {turn.content}
        </Typography>
      </Paper>
    </Stack>
  );
};

const Field = ({ label, value }: { label: string; value: string | null }) => (
  <Stack direction="row" spacing={1}>
    <Typography
      variant="body2"
      sx={{
        color: 'text.secondary',
        minWidth: 110,
      }}
    >
      {label}
    </Typography>
    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
      {value?.trim() ? value : '—'}
    </Typography>
  </Stack>
);

// Issue 40: the knowledge base's passages the agent was given for its last answer, numbered as it
// cites them; those it cited are marked.
const KnowledgeUsed = ({
  knowledge,
}: {
  knowledge: NonNullable<SandboxChatResponse['knowledge']>;
}) => {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {t('prompts.sandbox.knowledge')}
      </Typography>
      {knowledge.passages.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('prompts.sandbox.knowledgeNone')}
        </Typography>
      ) : (
        <Stack component="ol" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {knowledge.passages.map((passage) => (
            <Box component="li" key={passage.chunkId} aria-label={passage.documentName}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  [{passage.number}] {passage.documentName}
                  {passage.page !== null
                    ? ` · ${t('prompts.sandbox.page', { page: passage.page })}`
                    : ''}
                  {` · ${t('prompts.sandbox.passage', { number: passage.ordinal + 1 })}`}
                </Typography>
                {passage.cited && (
                  <Chip size="small" color="primary" label={t('prompts.sandbox.cited')} />
                )}
              </Stack>
              <Typography
                variant="body2"
                sx={{ color: 'text.secondary', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                {passage.text.length > 400 ? `${passage.text.slice(0, 397)}…` : passage.text}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
};

// SPEC §2 Sandbox: what the agent made of the conversation after its last answer.
const Analysis = ({ response }: { response: SandboxChatResponse }) => {
  const { t, i18n } = useTranslation();
  const { datos_cliente: customer, datos_pedido: order } = response.structured;
  const number = new Intl.NumberFormat(i18n.language);
  const usage = response.tokens.usage;
  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{
          alignItems: 'center',
          flexWrap: 'wrap',
        }}
      >
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('prompts.sandbox.state')}
        </Typography>
        <Chip
          size="small"
          color={response.final ? 'primary' : 'warning'}
          variant={response.final ? 'filled' : 'outlined'}
          label={response.final ? t('prompts.sandbox.final') : t('prompts.sandbox.inProgress')}
        />
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
            pl: 1,
          }}
        >
          {t('prompts.sandbox.sentiment')}
        </Typography>
        <Chip
          size="small"
          color={sentimentColors[response.sentiment]}
          label={t(`prompts.sandbox.sentiments.${response.sentiment}`)}
        />
      </Stack>
      {response.handoff && (
        <Alert severity="info">
          {t('prompts.sandbox.handoff', {
            queue: response.handoff.queue ?? t('prompts.sandbox.handoffOwnQueue'),
          })}
          {response.handoff.reason ? ` — ${response.handoff.reason}` : ''}
        </Alert>
      )}
      {response.knowledge && <KnowledgeUsed knowledge={response.knowledge} />}
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          {t('prompts.sandbox.customer')}
        </Typography>
        <Field label={t('prompts.sandbox.customerName')} value={customer.nombre} />
        <Field label={t('prompts.sandbox.customerPhone')} value={customer.telefono} />
        <Field label={t('prompts.sandbox.customerEmail')} value={customer.email} />
        <Field label={t('prompts.sandbox.customerAddress')} value={customer.direccion} />
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          {t('prompts.sandbox.order')}
        </Typography>
        {order.productos.length > 0 ? (
          <Table size="small" aria-label={t('prompts.sandbox.products')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('prompts.sandbox.product')}</TableCell>
                <TableCell align="right">{t('prompts.sandbox.quantity')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {order.productos.map((product, index) => (
                <TableRow key={index}>
                  <TableCell>{product.nombre}</TableCell>
                  <TableCell align="right">
                    {product.cantidad === null ? '—' : number.format(product.cantidad)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('prompts.sandbox.noProducts')}
          </Typography>
        )}
        <Box sx={{ mt: 1 }}>
          <Field
            label={t('prompts.sandbox.total')}
            value={order.total === null ? null : number.format(order.total)}
          />
          <Field label={t('prompts.sandbox.notes')} value={order.observaciones} />
        </Box>
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          {t('prompts.sandbox.tokens')}
        </Typography>
        <Typography variant="body2">
          {t('prompts.sandbox.serverEstimate', { count: response.tokens.estimate })}
        </Typography>
        <Typography variant="body2">
          {usage
            ? t('prompts.sandbox.usage', {
                prompt: usage.prompt,
                completion: usage.completion,
                total: usage.total,
              })
            : t('prompts.sandbox.noUsage')}
        </Typography>
      </Box>
    </Stack>
  );
};

const SandboxChat = ({ prompt }: { prompt: PromptView }) => {
  const { t } = useTranslation();
  const [turns, setTurns] = useState<SandboxTurn[]>([]);
  const [draft, setDraft] = useState('');
  const [contactName, setContactName] = useState('');
  const [windowText, setWindowText] = useState(String(prompt.maxMessages));
  const [last, setLast] = useState<SandboxChatResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const maxMessages = parseWindow(windowText);

  const chat = useMutation({
    mutationFn: (conversation: SandboxTurn[]) =>
      sandboxChat(prompt.id, {
        turns: newestTurns(conversation, SANDBOX_MAX_TURNS).map((turn) => ({
          ...turn,
          // An answer longer than a turn may hold goes back cut (only a runaway model gets there).
          content: turn.content.slice(0, SANDBOX_TURN_MAX),
        })),
        ...(maxMessages === null ? {} : { maxMessages }),
        ...(contactName.trim() ? { contactName: contactName.trim() } : {}),
      }),
    // The dialog shows the failure beside the conversation.
    meta: { silent: true },
    onSuccess: (response) => {
      // Its answer, then (handing over) the hand-off message the contact would get.
      const answers = [response.text.trim(), response.handoff?.message?.trim() ?? ''].filter(
        Boolean,
      );
      if (answers.length)
        setTurns((current) => [
          ...current,
          ...answers.map((content) => ({ role: 'assistant' as const, content })),
        ]);
      setLast(response);
    },
    onError: (error, conversation) => {
      // The message that could not be answered goes back to the input, to be sent again.
      const unanswered = conversation[conversation.length - 1]?.content ?? '';
      setTurns(conversation.slice(0, -1));
      setDraft((current) => (current.trim() ? current : unanswered));
      setFailure(errorText(error));
    },
  });

  const content = draft.trim();
  const canSend = content !== '' && maxMessages !== null && !chat.isPending;

  const send = () => {
    if (!canSend) return;
    const conversation: SandboxTurn[] = [...turns, { role: 'user', content }];
    setTurns(conversation);
    setDraft('');
    setFailure(null);
    chat.mutate(conversation);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // Enter alone writes a new line, as in the composer of a long message.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  };

  const reset = () => {
    setTurns([]);
    setDraft('');
    setLast(null);
    setFailure(null);
  };

  // SPEC §9 estimate of the next request: the prompt and the window of turns, with the draft.
  const pending = content ? [...turns, { role: 'user' as const, content }] : turns;
  const estimate = estimateTokens([
    prompt.prompt,
    ...newestTurns(pending, maxMessages ?? prompt.maxMessages).map((turn) => turn.content),
  ]);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [turns, chat.isPending]);

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ minHeight: 0, flex: 1 }}>
      <Stack spacing={1.5} sx={{ flex: 3, minWidth: 0 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{
            alignItems: 'flex-start',
          }}
        >
          <TextField
            label={t('prompts.sandbox.contactName')}
            value={contactName}
            onChange={(event) => setContactName(event.target.value)}
            size="small"
            autoComplete="off"
            fullWidth
            helperText={t('prompts.sandbox.contactNameHint')}
            slotProps={{ htmlInput: { maxLength: CONTACT_NAME_MAX_LENGTH } }}
          />
          <TextField
            label={t('prompts.sandbox.maxMessages')}
            value={windowText}
            onChange={(event) => setWindowText(event.target.value)}
            size="small"
            sx={{ width: { sm: 220 }, flexShrink: 0 }}
            error={maxMessages === null}
            helperText={
              maxMessages === null
                ? t('prompts.validation.maxMessages')
                : t('prompts.sandbox.maxMessagesHint')
            }
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <Button
            startIcon={<RestartAltIcon />}
            onClick={reset}
            disabled={chat.isPending || (turns.length === 0 && !last && !failure)}
            sx={{ flexShrink: 0, mt: { sm: 0.5 } }}
          >
            {t('prompts.sandbox.reset')}
          </Button>
        </Stack>
        <Box
          ref={logRef}
          role="log"
          aria-label={t('prompts.sandbox.conversation')}
          sx={{
            flex: 1,
            minHeight: 240,
            maxHeight: { md: '50vh' },
            overflowY: 'auto',
            p: 1.5,
            borderRadius: 1,
            bgcolor: 'action.hover',
          }}
        >
          {turns.length === 0 && !chat.isPending && (
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
                textAlign: 'center',
                py: 4,
              }}
            >
              {t('prompts.sandbox.empty')}
            </Typography>
          )}
          {turns.map((turn, index) => (
            <Turn key={index} turn={turn} />
          ))}
          {chat.isPending && (
            <Stack
              direction="row"
              spacing={1}
              sx={{
                alignItems: 'center',
                color: 'text.secondary',
              }}
            >
              <CircularProgress size={16} aria-label={t('prompts.sandbox.waiting')} />
              <Typography variant="body2">{t('prompts.sandbox.waiting')}</Typography>
            </Stack>
          )}
        </Box>
        {failure && (
          <Alert severity="error" onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'flex-start',
          }}
        >
          <TextField
            label={t('prompts.sandbox.message')}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            multiline
            minRows={2}
            maxRows={6}
            fullWidth
            autoFocus
            helperText={t('prompts.sandbox.sendHint')}
            slotProps={{ htmlInput: { maxLength: DRAFT_MAX_LENGTH } }}
          />
          <Button
            variant="contained"
            onClick={send}
            disabled={!canSend}
            endIcon={<SendIcon />}
            sx={{ mt: 1, flexShrink: 0 }}
          >
            {t('prompts.sandbox.send')}
          </Button>
        </Stack>
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('prompts.sandbox.estimate', { tokens: estimate })}
        </Typography>
      </Stack>
      <Box
        component="section"
        aria-labelledby="sandbox-analysis"
        sx={{ flex: 2, minWidth: 0, overflowY: { md: 'auto' } }}
      >
        <Typography id="sandbox-analysis" variant="subtitle1" component="h2" gutterBottom>
          {t('prompts.sandbox.analysis')}
        </Typography>
        {last ? (
          <Analysis response={last} />
        ) : (
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('prompts.sandbox.noAnalysis')}
          </Typography>
        )}
      </Box>
    </Stack>
  );
};

// SPEC §2 Sandbox chat: an admin talks to the agent as a customer would; nothing is stored or sent
// to WhatsApp. A new sessionKey starts a new conversation.
export const SandboxDialog = ({
  open,
  prompt,
  sessionKey,
  onClose,
}: {
  open: boolean;
  prompt: PromptView | null;
  sessionKey: number;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  return (
    // A conversation: as tall as the window allows from the first message on.
    <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="lg" stableHeight>
      <DialogView
        title={
          <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
            {t('prompts.sandbox.title', { name: prompt?.name ?? '' })}
          </Box>
        }
        contentSx={{ display: 'flex' }}
      >
        {prompt && <SandboxChat prompt={prompt} />}
      </DialogView>
    </DialogFrame>
  );
};
