import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';

// The API as its own process on a PostgreSQL database (the simulator on, no web app), for tests that
// kill it with -9; logged in as the bootstrap super user.

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const until = async <T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  ms = 60_000,
) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

export type ApiProcess = {
  child: ChildProcess;
  base: string;
  token: string;
  call: (
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<Response>;
  output: () => string;
};

export const startApiProcess = async (options: {
  databaseUrl: string;
  dataDir: string;
  email: string;
  password: string;
  // JWT secrets: nodes of one installation share them.
  secrets: Record<string, string>;
  env?: Record<string, string>;
  // A login of another node of the installation (a second login would end the first one's session).
  token?: string;
}): Promise<ApiProcess> => {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: apiDir,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl,
      SERVE_WEB: 'false',
      SIMULATOR_ENABLED: 'true',
      ADMIN_EMAIL: options.email,
      ADMIN_PASSWORD: options.password,
      LOG_LEVEL: 'warn',
      ...options.secrets,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const base = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`API exited:\n${output}`);
      return fetch(`${base}/version`).then(
        (r) => r.ok,
        () => false,
      );
    },
    Boolean,
    'the API to listen',
  );
  const token =
    options.token ??
    (
      (await (
        await fetch(`${base}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: options.email, password: options.password }),
        })
      ).json()) as { token: string }
    ).token;
  const call: ApiProcess['call'] = (method, route, body, headers = {}) =>
    fetch(`${base}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  return { child, base, token, call, output: () => output };
};
