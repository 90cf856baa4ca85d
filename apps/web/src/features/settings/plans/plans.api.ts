import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { planPricesContract, plansContract } from '@atendi/shared';
import { call } from '../../../api/http-client';
import type { Plan } from '../../../api/session';

export type { Plan };
// The currency is the platform's (BILLING_CURRENCY), not the plan's to choose.
type PlanInput = Omit<Plan, 'id' | 'currency'>;

export const planFeatures = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useExternalApi',
] as const satisfies readonly (keyof Plan)[];

const plansKey = ['plans-all'] as const;

export const usePlans = () =>
  useQuery({ queryKey: plansKey, queryFn: () => call(plansContract.listAllPlans) });

const silent = { silent: true };

export const useSavePlan = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: PlanInput & { id?: number }) =>
      id
        ? call(plansContract.updatePlan, { params: { id }, body: input })
        : call(plansContract.createPlan, { body: input }),
    onSuccess: (plan) =>
      queryClient.setQueryData<Plan[]>(plansKey, (plans = []) =>
        plans.some((item) => item.id === plan.id)
          ? plans.map((item) => (item.id === plan.id ? plan : item))
          : [...plans, plan],
      ),
    meta: silent,
  });
};

// POST /plans/{id}/price: creates or updates the plan's price at the payment provider and answers
// the plan with its new stripePriceId.
export const useSyncPlanPrice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(planPricesContract.syncPlanPrice, { params: { id } }),
    onSuccess: (plan) =>
      queryClient.setQueryData<Plan[]>(plansKey, (plans = []) =>
        plans.map((item) => (item.id === plan.id ? plan : item)),
      ),
    meta: silent,
  });
};

export const useDeletePlan = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(plansContract.deletePlan, { params: { id } }),
    onSuccess: (_data, id) =>
      queryClient.setQueryData<Plan[]>(plansKey, (plans = []) =>
        plans.filter((item) => item.id !== id),
      ),
    meta: silent,
  });
};
