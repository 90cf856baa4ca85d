import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  promptsContract,
  type PromptEvent,
  type PromptsList,
  type PromptView,
} from '@atendi/shared';
import { setLiveData } from '../../lib/paged-cache';
import { call } from '../http-client';
import { useCompanyEvent } from '../socket';

// The AI agents (GET /prompt: the prompts page and the "AI agent" select of connections and queues):
// one cache key for the whole app, kept current by the company-{id}-prompt events while a screen
// shows it.

const promptKeys = { list: ['prompts', 'list'] as const };

const fetchPrompts = () => call(promptsContract.listPrompts);

// The API's order: by name, then id.
const byName = (a: PromptView, b: PromptView) => a.name.localeCompare(b.name) || a.id - b.id;

// SPEC §7 company-{id}-prompt: create and update insert or replace, delete removes.
const applyPromptEvent = (
  data: PromptsList | undefined,
  event: PromptEvent,
): PromptsList | undefined => {
  if (!data) return data;
  const removedId = event.action === 'delete' ? event.promptId : event.prompt.id;
  const others = data.prompts.filter((prompt) => prompt.id !== removedId);
  const prompts = event.action === 'delete' ? others : [...others, event.prompt].sort(byName);
  return { prompts, count: prompts.length };
};

export const applyPromptEventToCache = (queryClient: QueryClient, event: PromptEvent) =>
  setLiveData<PromptsList>(queryClient, promptKeys.list, (data) => applyPromptEvent(data, event));

const usePromptEvents = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<PromptEvent>('prompt', (event) => {
    if (event?.action === 'delete' ? typeof event.promptId === 'number' : event?.prompt)
      applyPromptEventToCache(queryClient, event);
  });
};

// Read again when a screen that shows it mounts, and kept current by live events while it is shown.
// Silent: the caller shows its own error instead of a toast. `select` picks what a screen shows.
export const usePrompts = <Shown = PromptsList>({
  silent = false,
  select,
}: { silent?: boolean; select?: (data: PromptsList) => Shown } = {}) => {
  usePromptEvents();
  return useQuery({
    queryKey: promptKeys.list,
    queryFn: fetchPrompts,
    staleTime: 0,
    meta: { silent },
    select,
  });
};
