import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { email as emailSchema, ssoContract } from '@atendi/shared';
import { call } from '../../api/http-client';
import { getApiUrl } from '../../api/runtime-config';
import { goToUrl } from '../../lib/browser';

// Issue 37: whether the email typed on the login page signs in with its company's SSO (and whether
// a password still works), asked once the typing pauses on a whole address.
const PAUSE_MS = 350;

export const useSsoDiscovery = (typed: string) => {
  const [email, setEmail] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setEmail(typed.trim().toLowerCase()), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const query = useQuery({
    queryKey: ['sso-discovery', email],
    queryFn: () => call(ssoContract.discoverSso, { query: { email } }),
    enabled: emailSchema.safeParse(email).success,
    staleTime: 60_000,
    retry: false,
    // Without an answer the page offers the password, as always.
    meta: { silent: true },
  });
  return { email, ...query.data };
};

// The browser leaves for the provider through the API (which binds the round trip to it).
export const startSso = (email: string) =>
  goToUrl(`${getApiUrl()}/auth/sso/start?email=${encodeURIComponent(email)}`);
