import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  aiProviderContract,
  promptsContract,
  type AiProviderInput,
  type PromptInput,
  type PromptUpdateInput,
  type SandboxTurn,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';

// The prompts page's changes, sandbox and provider; the agents' list is api/queries/prompts.ts.

// What the sandbox sends: the conversation so far, and optionally its window and contact name.
type SandboxRequest = { turns: SandboxTurn[]; maxMessages?: number; contactName?: string };

export const promptsKeys = {
  provider: ['prompts', 'ai-provider'] as const,
  providerModels: ['prompts', 'ai-provider', 'models'] as const,
  usage: ['prompts', 'usage'] as const,
};

export const createPrompt = (input: PromptInput) =>
  call(promptsContract.createPrompt, { body: input });
export const updatePrompt = (id: number, input: PromptUpdateInput) =>
  call(promptsContract.updatePrompt, { params: { id }, body: input });
export const deletePrompt = (id: number) => call(promptsContract.deletePrompt, { params: { id } });
export const sandboxChat = (id: number, input: SandboxRequest) =>
  call(promptsContract.sandboxChat, { params: { id }, body: input });

const fetchAiProvider = () => call(aiProviderContract.getAiProvider);
export const saveAiProvider = (input: AiProviderInput) =>
  call(aiProviderContract.saveAiProvider, { body: input });
const fetchProviderModels = () => call(aiProviderContract.listAiProviderModels);
// The models of the provider as the form holds it, unsaved.
export const testAiProvider = (body: AiProviderInput) =>
  call(aiProviderContract.testAiProvider, { body });

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

// GET /prompt/usage: this month's answers against the plan's quotas. Read again when the page mounts
// and when an agent changes (created, deleted, or stopped by its quota: its row's error). Silent: the
// agents are managed without it, the page then shows no use.
export const usePromptsUsage = () => {
  const queryClient = useQueryClient();
  useCompanyEvent('prompt', () =>
    queryClient.invalidateQueries({ queryKey: promptsKeys.usage, exact: true }),
  );
  return useQuery({
    queryKey: promptsKeys.usage,
    queryFn: () => call(promptsContract.getPromptsUsage),
    staleTime: 0,
    meta: { silent: true },
  });
};
