import { subscriptionsContract, type BillingDetails, type PlanView } from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/http-client';
import { refreshOwnCompany, useOwnCompany as useCompany } from '../../api/queries/companies';
import { useCurrentSession } from '../../api/session';
import { useCompanyEvent } from '../../api/socket';

export type { PlanView };

const subscriptionsKey = ['subscriptions'] as const;

// GET /subscriptions: the company's subscriptions and invoices (newest first), and whether this
// server can take payments at all. Usable while the company is not active.
export const useSubscriptionsOverview = () =>
  useQuery({
    queryKey: subscriptionsKey,
    queryFn: ({ signal }) => call(subscriptionsContract.getSubscriptions, {}, { signal }),
  });

// GET /companies/{id}: the company as it is now, with its storage used and allowed.
export const useOwnCompany = () => {
  const { user } = useCurrentSession();
  // Only the storage card reads it: a failed read hides the card rather than toasting.
  return useCompany(user.company.id, { silent: true });
};

// A plan can be bought online once a super user gave it a price at the payment provider.
export const isPurchasable = (plan: Pick<PlanView, 'stripePriceId'>) => Boolean(plan.stripePriceId);

// Only admins and super users may start a checkout (the API answers others 403 ERR_NO_PERMISSION).
export const useCanSubscribe = () => {
  const { user } = useCurrentSession();
  return user.super || user.profile === 'admin';
};

// POST /subscriptions/checkout answers the provider's hosted page; card data is typed only there.
export const useCheckout = () =>
  useMutation({
    mutationFn: (input: { planId: number; billing: BillingDetails }) =>
      call(subscriptionsContract.createCheckout, { body: input }),
    // The checkout steps show SPEC §8's alert themselves.
    meta: { silent: true },
  });

// company-{id}-subscription, -invoice and -company: a payment, a renewal or the overdue/suspended
// lifecycle changed what the page shows; read it again.
export const useLiveSubscriptions = () => {
  const queryClient = useQueryClient();
  const reload = () => void queryClient.invalidateQueries({ queryKey: subscriptionsKey });
  useCompanyEvent('subscription', reload);
  useCompanyEvent('invoice', reload);
  useCompanyEvent('company', () => {
    reload();
    void refreshOwnCompany(queryClient);
  });
};
