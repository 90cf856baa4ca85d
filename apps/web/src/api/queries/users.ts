import { useQuery, useQueryClient } from '@tanstack/react-query';
import { usersContract, type UserOption } from '@atendi/shared';
import { setLiveData } from '../../lib/paged-cache';
import { call } from '../http-client';
import { usePresenceEvents, withPresence } from '../presence';
import { useCompanyEvent } from '../socket';

// The short list of the company's users (GET /users/list: the transfer dialog, the ticket search
// filter, the getting-started card): one cache key for the whole app.

const userOptionKeys = { list: ['users', 'options'] as const };

const fetchUserOptions = () => call(usersContract.listUserOptions);

// Read again when a screen that shows it mounts, and when a user changes (only admins hear it; the
// others read it on the next mount); everyone's presence changes are written in as they come.
// Silent: the caller shows its own error instead of a toast.
export const useUserOptions = ({ enabled = true, silent = false } = {}) => {
  const queryClient = useQueryClient();
  useCompanyEvent('user', () => {
    void queryClient.invalidateQueries({ queryKey: userOptionKeys.list });
  });
  usePresenceEvents((change) =>
    setLiveData<UserOption[]>(queryClient, userOptionKeys.list, (users) =>
      users?.map((user) => withPresence(user, change)),
    ),
  );
  return useQuery({
    queryKey: userOptionKeys.list,
    queryFn: fetchUserOptions,
    enabled,
    staleTime: 0,
    meta: { silent },
  });
};
