import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { insightContract, type InsightRuleInput } from '@atendi/shared';
import { call } from '../../api/http-client';

// Live insight's rules (issue 40, admins of a plan with AI): what a conversation's analysis does to
// its ticket.
const insightRulesKey = ['insight-rules'] as const;

export const useInsightRules = () =>
  useQuery({
    queryKey: insightRulesKey,
    queryFn: () => call(insightContract.listInsightRules),
    // The tab says a failure itself.
    meta: { silent: true },
  });

export const useSaveInsightRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: InsightRuleInput }) =>
      id === null
        ? call(insightContract.createInsightRule, { body })
        : call(insightContract.updateInsightRule, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: insightRulesKey }),
    meta: { silent: true },
  });
};

export const useDeleteInsightRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(insightContract.deleteInsightRule, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: insightRulesKey }),
  });
};
