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

export const until = async <T>(read: () => Promise<T>, ok: (value: T) => boolean, tries = 100) => {
  for (let i = 0; i < tries; i += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
};

export type Outbound = {
  id: string;
  to: string;
  body: string;
  mediaType: string;
  fileName: string | null;
  ack: number;
};
