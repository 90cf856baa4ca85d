import { useQuery } from '@tanstack/react-query';
import { can, type IntegrationsPage } from '@atendi/shared';
import { api } from '../api/http-client';
import { useCurrentSession } from '../api/session';
import { RecordSelect, type RecordSelectFieldProps } from './record-select';

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
export const IntegrationSelect = (props: RecordSelectFieldProps) => (
  <RecordSelect choices={useIntegrationChoices()} texts="integrationSelect" {...props} />
);
