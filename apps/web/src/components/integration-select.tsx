import { useQuery } from '@tanstack/react-query';
import { can, type IntegrationOption } from '@atendi/shared';
import { api } from '../api/http-client';
import { useCurrentSession } from '../api/session';
import { RecordSelect, type RecordSelectFieldProps } from './record-select';

// A picker needs every integration: the API lists them all at once, by name.
const fetchIntegrationChoices = () => api.get<IntegrationOption[]>('/queueIntegration/list');

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
    select: (options) => options.map(({ id, name }) => ({ id, name })),
  });

// The "Integration" select of connections and queues; its value is the id as text, '' for none.
export const IntegrationSelect = (props: RecordSelectFieldProps) => (
  <RecordSelect choices={useIntegrationChoices()} texts="integrationSelect" {...props} />
);
