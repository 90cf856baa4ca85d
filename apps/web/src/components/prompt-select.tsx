import type { Ref } from 'react';
import { CircularProgress, MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, type PromptsList } from '@atendi/shared';
import { api } from '../api/http-client';
import { useCurrentSession } from '../api/session';

const fetchPromptChoices = () => api.get<PromptsList>('/prompt');

// AI agents are the admins' (prompts:manage) and need the plan's useOpenAi.
export const useCanPickPrompt = () => {
  const { user } = useCurrentSession();
  return can(user, 'prompts:manage') && Boolean(user.company?.plan?.useOpenAi);
};

// Silent: without the list the select still offers "none" and keeps the saved agent.
const usePromptChoices = () =>
  useQuery({
    queryKey: ['prompt-choices'],
    queryFn: fetchPromptChoices,
    staleTime: 0,
    meta: { silent: true },
    select: (data) => data.prompts.map(({ id, name }) => ({ id, name })),
  });

// The "AI agent" select of connections and queues; its value is the agent's id as text, '' for none.
export const PromptSelect = ({
  value,
  onChange,
  onBlur,
  inputRef,
  name,
  helperText,
  error,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  name?: string;
  helperText?: string;
  error?: boolean;
  disabled?: boolean;
}) => {
  const { t } = useTranslation();
  const prompts = usePromptChoices();
  const isListed = value === '' || prompts.data?.some((prompt) => String(prompt.id) === value);
  return (
    <TextField
      select
      name={name}
      label={t('promptSelect.label')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      inputRef={inputRef}
      fullWidth
      disabled={disabled}
      error={error}
      helperText={helperText}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{t('promptSelect.none')}</MenuItem>
      {(prompts.data ?? []).map((prompt) => (
        <MenuItem key={prompt.id} value={String(prompt.id)}>
          {prompt.name}
        </MenuItem>
      ))}
      {!isListed && <MenuItem value={value}>{t('promptSelect.unknown', { id: value })}</MenuItem>}
      {prompts.isPending && (
        <MenuItem disabled>
          <CircularProgress size={18} sx={{ mr: 1 }} />
          {t('promptSelect.loading')}
        </MenuItem>
      )}
    </TextField>
  );
};
