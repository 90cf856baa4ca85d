import { can, settingsContract, systemContract } from '@atendi/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/http-client';
import { useCurrentSession, type CompanySetting } from '../../api/session';

export const settingsQueryKey = ['settings'] as const;

// Only admins may list settings; everyone else uses the copy that came with the session.
export const useCompanySettings = (): CompanySetting[] => {
  const { user } = useCurrentSession();
  const { data } = useQuery({
    queryKey: settingsQueryKey,
    queryFn: () => call(settingsContract.listSettings),
    enabled: can(user, 'settings:update'),
    meta: { silent: true },
  });
  return data ?? user.company?.settings ?? [];
};

export const settingValue = (settings: CompanySetting[], key: string) =>
  settings.find((setting) => setting.key === key)?.value;

export const useServerVersion = () =>
  useQuery({
    queryKey: ['version'],
    queryFn: () => call(systemContract.getVersion),
    staleTime: Infinity,
    meta: { silent: true },
  }).data?.version;
