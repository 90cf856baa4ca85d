import { apiTokensContract, type ApiToken, type ApiTokenCreateInput } from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/http-client';

// Issue 38: the company's API tokens (admins). The token itself comes once, in what creating answers.
const apiTokensKey = ['api-tokens'] as const;

export const useApiTokens = () =>
  useQuery({
    queryKey: apiTokensKey,
    queryFn: () => call(apiTokensContract.listApiTokens),
    // The tab says a failure itself.
    meta: { silent: true },
  });

export const useCreateApiToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiTokenCreateInput) => call(apiTokensContract.createApiToken, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensKey }),
    meta: { silent: true },
  });
};

export const useRevokeApiToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(apiTokensContract.revokeApiToken, { params: { id } }),
    // Gone from the list at once, then the list as the server has it.
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<{ tokens: ApiToken[] }>(apiTokensKey, (list) =>
        list ? { tokens: list.tokens.filter((token) => token.id !== id) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: apiTokensKey });
    },
  });
};
