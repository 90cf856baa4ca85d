import {
  companiesContract,
  subscriptionsContract,
  type CompaniesPage,
  type CompanyStatus,
  type CompanyView,
  type CreatedCompany,
  type Recurrence,
} from '@atendi/shared';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { call } from '../../../api/http-client';
import { useCompanyEvent } from '../../../api/socket';

export type Company = CompanyView;
export type { CreatedCompany };

export type CompanyInput = {
  name: string;
  email: string;
  phone: string;
  planId: number;
  status: CompanyStatus;
  dueDate: string | null;
  recurrence: Recurrence;
  campaignsEnabled: boolean;
};

type CompaniesData = InfiniteData<CompaniesPage, number>;

const companiesKey = ['companies-list'] as const;

export const useCompanies = (searchParam: string) =>
  useInfiniteQuery({
    queryKey: [...companiesKey, searchParam],
    queryFn: ({ pageParam, signal }) =>
      call(
        companiesContract.listCompanies,
        { query: { searchParam, pageNumber: pageParam } },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

const upsert = (data: CompaniesData | undefined, company: Company): CompaniesData | undefined => {
  if (!data) return data;
  const exists = data.pages.some((page) => page.companies.some((item) => item.id === company.id));
  if (exists) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        companies: page.companies.map((item) => (item.id === company.id ? company : item)),
      })),
    };
  }
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return {
    ...data,
    pages: [
      { ...first, companies: [company, ...first.companies], count: first.count + 1 },
      ...rest,
    ],
  };
};

const remove = (data: CompaniesData | undefined, id: number): CompaniesData | undefined => {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      companies: page.companies.filter((item) => item.id !== id),
    })),
  };
};

// SPEC §4 live updates: create and update insert or replace, delete removes.
const putCompany = (queryClient: QueryClient, company: Company) =>
  queryClient.setQueriesData<CompaniesData>({ queryKey: companiesKey }, (data) =>
    upsert(data, company),
  );
const dropCompany = (queryClient: QueryClient, id: number) =>
  queryClient.setQueriesData<CompaniesData>({ queryKey: companiesKey }, (data) => remove(data, id));

type CompanyEvent =
  { action: 'create' | 'update'; company: Company } | { action: 'delete'; companyId: number };

export const useLiveCompanies = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<CompanyEvent>('company', (payload) => {
    if (payload?.action === 'delete') dropCompany(queryClient, payload.companyId);
    else if (payload?.company) putCompany(queryClient, payload.company);
  });
};

const silent = { silent: true };

export const useCreateCompany = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CompanyInput) => call(companiesContract.createCompany, { body: input }),
    onSuccess: ({ adminPassword: _secret, ...company }) => putCompany(queryClient, company),
    meta: silent,
  });
};

export const useUpdateCompany = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: Partial<CompanyInput> & { id: number; expire?: boolean }) =>
      call(companiesContract.updateCompany, { params: { id }, body: input }),
    onSuccess: (company) => putCompany(queryClient, company),
    meta: silent,
  });
};

export const useDeleteCompany = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(companiesContract.deleteCompany, { params: { id } }),
    onSuccess: (_data, id) => dropCompany(queryClient, id),
    meta: silent,
  });
};

// GET /subscriptions?companyId=N: a super user reads another company's subscriptions and invoices.
export const useCompanySubscriptions = (companyId: number | null) =>
  useQuery({
    queryKey: ['company-subscriptions', companyId],
    queryFn: ({ signal }) =>
      call(
        subscriptionsContract.getSubscriptions,
        { query: { companyId: companyId ?? undefined } },
        { signal },
      ),
    enabled: companyId !== null,
    // Opened to look at now: never an old copy.
    staleTime: 0,
  });
