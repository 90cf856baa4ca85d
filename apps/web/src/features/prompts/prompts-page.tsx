import { useState } from 'react';
import { Alert, Button, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, type PromptsUsage, type PromptView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { AiMessagesUsage, formatAiCount } from '../../components/ai-usage';
import { useDeleteConfirm } from '../../components/delete-confirm';
import { MessagePage } from '../../components/message-page';
import { WarningBadge } from '../../components/warning-badge';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { cssColor } from '../../lib/colors';
import { formatDateTime } from '../../lib/dates';
import { AiProviderDialog } from './ai-provider-dialog';
import { PromptDialog } from './prompt-dialog';
import { applyPromptEventToCache, usePrompts } from '../../api/queries/prompts';
import { deletePrompt, usePromptsUsage } from './prompts.api';
import { SandboxDialog } from './sandbox-dialog';

type DialogState = { open: boolean; prompt: PromptView | null; sessionKey: number };

const closed: DialogState = { open: false, prompt: null, sessionKey: 0 };

// What last went wrong when the agent answered a customer: admins must see a provider failing.
const LastErrorIcon = ({ error }: { error: NonNullable<PromptView['lastError']> }) => {
  const { t, i18n } = useTranslation();
  const codeText = i18n.exists(`errors.${error.code}`) ? t(`errors.${error.code}`) : error.code;
  const text = t('prompts.lastError', {
    at: formatDateTime(error.at),
    text: [codeText, error.message].filter(Boolean).join(' — '),
  });
  return <WarningBadge text={text} />;
};

// SPEC §9 plan quotas over the table: the agents the plan allows, the answers each may send this
// month, and the agents whose answers ran out (their conversations go to people).
const PlanQuotas = ({ usage }: { usage: PromptsUsage }) => {
  const { t, i18n } = useTranslation();
  const month = new Intl.DateTimeFormat(i18n.language, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${usage.month}-01T00:00:00Z`));
  const parts = [
    usage.agentsLimit > 0
      ? t('prompts.usage.agents', { used: usage.agents, limit: usage.agentsLimit })
      : t('prompts.usage.agentsUnlimited', { used: usage.agents }),
    usage.messagesLimit > 0
      ? t('prompts.usage.messages', {
          limit: formatAiCount(usage.messagesLimit, i18n.language),
          month,
        })
      : t('prompts.usage.messagesUnlimited', { month }),
  ];
  if (usage.agentsLimit > 0 && usage.agents >= usage.agentsLimit)
    parts.push(t('prompts.usage.agentsFull'));
  return (
    <Stack spacing={1}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="ai-quotas">
        {parts.join(' · ')}
      </Typography>
      <TokensUsage usage={usage} />
      {usage.exhaustedAgents > 0 && (
        <Alert severity="warning">
          {t('prompts.usage.exhausted', { count: usage.exhaustedAgents })}
        </Alert>
      )}
      {usage.tokensLimit > 0 && usage.tokens >= usage.tokensLimit && (
        <Alert severity="error">{t('prompts.usage.tokensSpent')}</Alert>
      )}
    </Stack>
  );
};

// Issue 40: the tokens every use of AI spent this month against the plan's, and on what.
const TokensUsage = ({ usage }: { usage: PromptsUsage }) => {
  const { t, i18n } = useTranslation();
  const count = (value: number) => formatAiCount(value, i18n.language);
  const share = usage.tokensLimit > 0 ? usage.tokens / usage.tokensLimit : 0;
  return (
    <Stack spacing={0.5} data-testid="ai-tokens">
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {usage.tokensLimit > 0
          ? t('prompts.usage.tokens', {
              used: count(usage.tokens),
              limit: count(usage.tokensLimit),
            })
          : t('prompts.usage.tokensUnlimited', { used: count(usage.tokens) })}
        {usage.tokensByFeature.length > 0 &&
          ` (${usage.tokensByFeature
            .map((row) => `${t(`prompts.usage.features.${row.feature}`)}: ${count(row.tokens)}`)
            .join(' · ')})`}
      </Typography>
      {usage.tokensLimit > 0 && (
        <LinearProgress
          variant="determinate"
          value={Math.min(100, Math.round(share * 100))}
          color={share >= 1 ? 'error' : share >= 0.8 ? 'warning' : 'primary'}
          aria-label={t('prompts.usage.tokensLabel')}
          sx={{ height: 4, borderRadius: 1, maxWidth: 320 }}
        />
      )}
    </Stack>
  );
};

// The whole list arrives at once: the table neither searches nor pages.
const PromptsManager = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data, isPending } = usePrompts();
  const prompts = data?.prompts ?? [];
  const usage = usePromptsUsage().data;
  const sentBy = new Map(usage?.prompts.map((row) => [row.promptId, row.messages]));
  const [editor, setEditor] = useState<DialogState>(closed);
  const [sandbox, setSandbox] = useState<DialogState>(closed);
  const [provider, setProvider] = useState({ open: false, sessionKey: 0 });

  const open =
    (setState: typeof setEditor) =>
    (prompt: PromptView | null): void =>
      setState((current) => ({ open: true, prompt, sessionKey: current.sessionKey + 1 }));
  const openEditor = open(setEditor);
  const openSandbox = open(setSandbox);
  // The sandbox follows the live list: an edit made meanwhile applies to the next message.
  const sandboxPrompt =
    prompts.find((prompt) => prompt.id === sandbox.prompt?.id) ?? sandbox.prompt;

  const confirmDelete = useDeleteConfirm({
    remove: (prompt: PromptView) => deletePrompt(prompt.id),
    onDeleted: (prompt) =>
      applyPromptEventToCache(queryClient, { action: 'delete', promptId: prompt.id }),
    deletedText: t('prompts.deleted'),
    title: (prompt) => t('prompts.deleteTitle', { name: prompt.name }),
    message: () => t('prompts.deleteText'),
    confirmLabel: t('prompts.delete'),
  });

  const columns: TableColumns<PromptView> = [
    {
      header: t('prompts.columns.name'),
      cell: (prompt) => (
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'center',
          }}
        >
          <span>{prompt.name}</span>
          {prompt.lastError && <LastErrorIcon error={prompt.lastError} />}
        </Stack>
      ),
      sx: { fontWeight: 500 },
    },
    {
      header: t('prompts.columns.queue'),
      cell: (prompt) => {
        if (!prompt.queue) return '—';
        const color = cssColor(prompt.queue.color);
        return (
          <Chip
            size="small"
            label={prompt.queue.name}
            sx={{ bgcolor: color, color: (theme) => theme.palette.getContrastText(color) }}
          />
        );
      },
    },
    {
      header: t('prompts.columns.maxTokens'),
      cell: (prompt) => prompt.maxTokens,
      align: 'center',
    },
    {
      header: t('prompts.columns.thisMonth'),
      cell: (prompt) =>
        usage ? (
          <AiMessagesUsage used={sentBy.get(prompt.id) ?? 0} limit={usage.messagesLimit} />
        ) : (
          '—'
        ),
    },
    actionsColumn(
      t('prompts.columns.actions'),
      (prompt) => (
        <>
          <RowAction
            title={t('prompts.openSandbox')}
            label={t('prompts.openSandboxOf', { name: prompt.name })}
            icon={<ForumOutlinedIcon fontSize="small" />}
            onClick={() => openSandbox(prompt)}
          />
          <RowAction
            title={t('prompts.edit')}
            label={t('prompts.editPrompt', { name: prompt.name })}
            icon={<EditOutlinedIcon fontSize="small" />}
            onClick={() => openEditor(prompt)}
          />
          <RowAction
            title={t('prompts.delete')}
            label={t('prompts.deletePrompt', { name: prompt.name })}
            icon={<DeleteOutlineIcon fontSize="small" />}
            onClick={() => confirmDelete.ask(prompt)}
          />
        </>
      ),
      150,
    ),
  ];

  return (
    <>
      <PagedTable
        title={t('prompts.title')}
        stackBelow="md"
        toolbar={
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<SettingsOutlinedIcon />}
              onClick={() =>
                setProvider((current) => ({ open: true, sessionKey: current.sessionKey + 1 }))
              }
            >
              {t('prompts.provider.open')}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openEditor(null)}>
              {t('prompts.add')}
            </Button>
          </Stack>
        }
        notice={usage && <PlanQuotas usage={usage} />}
        list={{ rows: prompts, isPending, isFetching: isPending }}
        columns={columns}
        emptyText={t('prompts.empty')}
      />
      <PromptDialog
        open={editor.open}
        prompt={editor.prompt}
        sessionKey={editor.sessionKey}
        onClose={() => setEditor((current) => ({ ...current, open: false }))}
      />
      <SandboxDialog
        open={sandbox.open}
        prompt={sandboxPrompt}
        sessionKey={sandbox.sessionKey}
        onClose={() => setSandbox((current) => ({ ...current, open: false }))}
      />
      <AiProviderDialog
        open={provider.open}
        sessionKey={provider.sessionKey}
        onClose={() => setProvider((current) => ({ ...current, open: false }))}
      />
      {confirmDelete.dialog}
    </>
  );
};

// SPEC §2 Prompts (the route already needs the plan's useOpenAi): admins only; other profiles get a
// notice instead of a failing list.
export const PromptsPage = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  if (!can(user, 'prompts:manage')) {
    return (
      <MessagePage title={t('prompts.noPermissionTitle')} text={t('prompts.noPermissionText')} />
    );
  }
  return <PromptsManager />;
};
