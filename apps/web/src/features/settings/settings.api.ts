import {
  companiesContract,
  settingsContract,
  ssoContract,
  type SsoConfigInput,
  type RouteInput,
  type SettingKey,
} from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/http-client';
import { setOwnCompany } from '../../api/queries/companies';
import type { CompanySetting } from '../../api/session';
import { useCompanyEvent } from '../../api/socket';
import { settingsQueryKey } from '../../app/layout/use-shell-data';

// The same cache entry the shell reads (drawer, initial side menu), so a change shows everywhere.
const fetchSettings = () => call(settingsContract.listSettings);

export const useSettings = () => useQuery({ queryKey: settingsQueryKey, queryFn: fetchSettings });

const withValue = (settings: CompanySetting[] | undefined, setting: CompanySetting) => {
  const list = settings ?? [];
  return list.some((item) => item.key === setting.key)
    ? list.map((item) => (item.key === setting.key ? setting : item))
    : [...list, setting];
};

export const useUpdateSetting = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) =>
      call(settingsContract.updateSetting, { params: { key }, body: { value } }),
    // Shown at once; put back if the server refuses.
    onMutate: async (setting) => {
      await queryClient.cancelQueries({ queryKey: settingsQueryKey });
      const previous = queryClient.getQueryData<CompanySetting[]>(settingsQueryKey);
      queryClient.setQueryData<CompanySetting[]>(settingsQueryKey, (list) =>
        withValue(list, setting),
      );
      return { previous };
    },
    onError: (_error, _setting, context) => {
      queryClient.setQueryData(settingsQueryKey, context?.previous);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData<CompanySetting[]>(settingsQueryKey, (list) =>
        withValue(list, saved),
      );
    },
  });
};

type SettingsEvent = { action: 'update'; setting: CompanySetting };

// Another admin's change arrives live (company-{id}-settings).
export const useLiveSettings = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<SettingsEvent>('settings', (payload) => {
    if (payload?.action !== 'update' || !payload.setting) return;
    queryClient.setQueryData<CompanySetting[]>(settingsQueryKey, (list) =>
      withValue(list, payload.setting),
    );
  });
};

type CompanySchedules = RouteInput<
  typeof companiesContract.updateCompanySchedules
>['body']['schedules'];

export const useSaveCompanyTimeZone = (companyId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (timeZone: string) =>
      call(companiesContract.updateCompanyTimeZone, {
        params: { id: companyId },
        body: { timeZone },
      }),
    onSuccess: (company) => setOwnCompany(queryClient, company),
    meta: { silent: true },
  });
};

export const useSaveCompanySchedules = (companyId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedules: CompanySchedules) =>
      call(companiesContract.updateCompanySchedules, {
        params: { id: companyId },
        body: { schedules },
      }),
    onSuccess: (company) => setOwnCompany(queryClient, company),
    meta: { silent: true },
  });
};

// Issue 37: the company's single sign-on (the secret is written, never read back).
const ssoKey = (companyId: number) => ['sso', companyId] as const;
export const useSsoSettings = (companyId: number) =>
  useQuery({
    queryKey: ssoKey(companyId),
    queryFn: () => call(ssoContract.getSso, { params: { id: companyId } }),
  });
export const useSaveSso = (companyId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConfigInput) =>
      call(ssoContract.updateSso, { params: { id: companyId }, body }),
    onSuccess: (saved) => queryClient.setQueryData(ssoKey(companyId), saved),
    meta: { silent: true },
  });
};
export const useDeleteSso = (companyId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(ssoContract.deleteSso, { params: { id: companyId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ssoKey(companyId) }),
  });
};
