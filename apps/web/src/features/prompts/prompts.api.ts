import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  AiProviderInput,
  AiProviderView,
  PromptEvent,
  PromptInput,
  PromptsList,
  PromptUpdateInput,
  PromptView,
  SandboxChatResponse,
  SandboxTurn,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { setLiveData } from '../../lib/paged-cache';

// What the sandbox sends: the conversation so far, and optionally its window and contact name.
export type SandboxRequest = { turns: SandboxTurn[]; maxMessages?: number; contactName?: string };

export const promptsKeys = {
  list: ['prompts', 'list'] as const,
  provider: ['prompts', 'ai-provider'] as const,
  providerModels: ['prompts', 'ai-provider', 'models'] as const,
};

export const fetchPrompts = () => api.get<PromptsList>('/prompt');
export const createPrompt = (input: PromptInput) => api.post<PromptView>('/prompt', input);
export const updatePrompt = (id: number, input: PromptUpdateInput) =>
  api.put<PromptView>(`/prompt/${id}`, input);
export const deletePrompt = (id: number) => api.delete<{ message: string }>(`/prompt/${id}`);
export const sandboxChat = (id: number, input: SandboxRequest) =>
  api.post<SandboxChatResponse>(`/prompt/${id}/sandbox-chat`, input);

export const fetchAiProvider = () => api.get<AiProviderView>('/ai-provider');
export const saveAiProvider = (input: AiProviderInput) =>
  api.put<AiProviderView>('/ai-provider', input);
export const fetchProviderModels = () => api.get<{ models: string[] }>('/ai-provider/models');

export const usePrompts = () => useQuery({ queryKey: promptsKeys.list, queryFn: fetchPrompts });

// Silent: the provider dialog shows its own error.
export const useAiProvider = (enabled: boolean) =>
  useQuery({
    queryKey: promptsKeys.provider,
    queryFn: fetchAiProvider,
    enabled,
    staleTime: 0,
    meta: { silent: true },
  });

// Only suggestions for the model field: a provider that cannot list them leaves the built-in ones.
export const useProviderModels = () =>
  useQuery({
    queryKey: promptsKeys.providerModels,
    queryFn: fetchProviderModels,
    meta: { silent: true },
  });

// The API's order: by name, then id.
const byName = (a: PromptView, b: PromptView) => a.name.localeCompare(b.name) || a.id - b.id;

// SPEC §7 company-{id}-prompt: create and update insert or replace, delete removes.
export const applyPromptEvent = (
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
  setLiveData<PromptsList>(queryClient, promptsKeys.list, (data) => applyPromptEvent(data, event));

export const usePromptLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<PromptEvent>('prompt', (event) => {
    if (event?.action === 'delete' ? typeof event.promptId === 'number' : event?.prompt)
      applyPromptEventToCache(queryClient, event);
  });
};
