import { eventually } from '../../apps/api/test/eventually';

// The API as a test's own client: setup, and the simulated phone's side of a conversation.

export const apiClient = (apiUrl: string) => {
  const call = async <T = unknown>(token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const login = async (email: string, password: string) =>
    (
      (await (
        await fetch(`${apiUrl}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        })
      ).json()) as { token: string }
    ).token;
  return { call, login };
};

// E2e reads go through the running server or the browser: looked at every 100 ms.
export const POLL = { everyMs: 100 };

// Pairs a simulator connection (its session starts in the background: the scan is asked again until
// it is taken).
export const pairSimulator = (
  client: ReturnType<typeof apiClient>,
  token: string,
  connectionId: number,
) =>
  eventually(
    () =>
      client.call(token, 'POST', `/simulator/${connectionId}/scan`).then(
        () => true,
        () => false,
      ),
    Boolean,
    `connection ${connectionId} paired`,
    POLL,
  );

export type Outbound = {
  id: string;
  to: string;
  body: string;
  mediaType: string;
  fileName: string | null;
  ack: number;
};
