import { useQuery } from '@tanstack/react-query';
import { can, type PromptsList } from '@atendi/shared';
import { api } from '../api/http-client';
import { useCurrentSession } from '../api/session';
import { RecordSelect, type RecordSelectFieldProps } from './record-select';

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
export const PromptSelect = (props: RecordSelectFieldProps) => (
  <RecordSelect choices={usePromptChoices()} texts="promptSelect" {...props} />
);
