import { useQuery, type QueryClient } from '@tanstack/react-query';
import { companiesContract, type CompanyView } from '@atendi/shared';
import { call } from '../http-client';

// GET /companies/{id} of the user's own company (its business hours in settings, its storage on the
// subscriptions page): one cache key for the whole app.

const ownCompanyKeys = {
  all: ['companies', 'own'] as const,
  detail: (id: number) => ['companies', 'own', id] as const,
};

// Silent: the caller shows its own error (or hides what needs it) instead of a toast.
export const useOwnCompany = (companyId: number, { silent = false } = {}) =>
  useQuery({
    queryKey: ownCompanyKeys.detail(companyId),
    queryFn: ({ signal }) =>
      call(companiesContract.getCompany, { params: { id: companyId } }, { signal }),
    meta: { silent },
  });

// What a change of the company answered (PUT /companies/{id}/schedules).
export const setOwnCompany = (queryClient: QueryClient, company: CompanyView) =>
  queryClient.setQueryData(ownCompanyKeys.detail(company.id), company);

// A live change of the company (company-{id}-company): read it again.
export const refreshOwnCompany = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ownCompanyKeys.all });
