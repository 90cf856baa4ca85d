import { useQuery } from '@tanstack/react-query';
import { plansContract } from '@atendi/shared';
import { call } from '../http-client';

// GET /plans/list, the plans anyone may sign up for or buy (the sign-up and subscribe pages): one cache
// key for the whole app. It needs no session.

const publicPlanKeys = { list: ['plans', 'public'] as const };

const fetchPublicPlans = () => call(plansContract.listPublicPlans);

export const usePublicPlans = () =>
  useQuery({ queryKey: publicPlanKeys.list, queryFn: fetchPublicPlans });
