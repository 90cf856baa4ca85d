import type { Ref } from 'react';
import { CircularProgress, MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, type IntegrationsPage } from '@atendi/shared';
import { api } from '../api/http-client';
import { useCurrentSession } from '../api/session';

// GET /queueIntegration pages by 40; a company with more than this many is not expected.
const MAX_PAGES = 25;

type IntegrationChoice = { id: number; name: string };

// The list is paged (by name): a picker needs every page.
const fetchIntegrationChoices = async () => {
  const choices: IntegrationChoice[] = [];
  for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber += 1) {
    const page = await api.get<IntegrationsPage>('/queueIntegration', {
      query: { searchParam: '', pageNumber },
    });
    choices.push(...page.queueIntegrations.map(({ id, name }) => ({ id, name })));
    if (!page.hasMore) break;
  }
  return choices;
};

// Integrations are the admins' (integrations:manage) and need the plan's useIntegrations.
export const useCanPickIntegration = () => {
  const { user } = useCurrentSession();
  return can(user, 'integrations:manage') && Boolean(user.company?.plan?.useIntegrations);
};

// Silent: without the list the select still offers "none" and keeps the saved integration.
const useIntegrationChoices = () =>
  useQuery({
    queryKey: ['integration-choices'],
    queryFn: fetchIntegrationChoices,
    staleTime: 0,
    meta: { silent: true },
  });

// The "Integration" select of connections and queues; its value is the id as text, '' for none.
export const IntegrationSelect = ({
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
  const integrations = useIntegrationChoices();
  const isListed =
    value === '' || integrations.data?.some((integration) => String(integration.id) === value);
  return (
    <TextField
      select
      name={name}
      label={t('integrationSelect.label')}
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
      <MenuItem value="">{t('integrationSelect.none')}</MenuItem>
      {(integrations.data ?? []).map((integration) => (
        <MenuItem key={integration.id} value={String(integration.id)}>
          {integration.name}
        </MenuItem>
      ))}
      {!isListed && (
        <MenuItem value={value}>{t('integrationSelect.unknown', { id: value })}</MenuItem>
      )}
      {integrations.isPending && (
        <MenuItem disabled>
          <CircularProgress size={18} sx={{ mr: 1 }} />
          {t('integrationSelect.loading')}
        </MenuItem>
      )}
    </TextField>
  );
};
