import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from './free-port';
import { eventually } from './eventually';
import { databaseUrl } from './pg-url';

// The API as its own process on a PostgreSQL database (the simulator on, no web app), for tests that
// kill it with -9; logged in as the bootstrap super user.

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// A process starts, recovers and answers at its own pace: how long waits on it may take.
export const PROCESS_WAIT = { timeoutMs: 60_000, everyMs: 200 };

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
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`API exited:\n${output}`);
      return fetch(`${base}/version`).then(
        (r) => r.ok,
        () => false,
      );
    },
    Boolean,
    'the API to listen',
    PROCESS_WAIT,
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

// A database of its own for a test that runs the API as processes (a copy of the migrated template,
// or an empty one), the DATA_DIR its processes share, and the clean-up of both and of the processes
// started.
export const openProcessDatabase = async (prefix: string, options: { empty?: boolean } = {}) => {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl(base, 'postgres') });
  await admin.connect();
  await admin.query(
    options.empty
      ? `CREATE DATABASE ${name}`
      : `CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`,
  );
  const url = databaseUrl(base, name);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const children: ChildProcess[] = [];
  return {
    url,
    db,
    dataDir,
    // Killed with -9 at the end if still running.
    children,
    close: async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await db.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

// A simulator connection created and paired through the node, and one conversation per number,
// opened by the contact and taken by the logged-in user (email), so it can be written to.
export const openConversations = async (
  api: ApiProcess,
  db: pg.Client,
  email: string,
  numbers: string[],
) => {
  const connection = (await (
    await api.call('POST', '/whatsapp', { name: 'Ráfaga', provider: 'simulator' })
  ).json()) as { id: number };
  await eventually(
    async () => (await api.call('POST', `/simulator/${connection.id}/scan`)).status,
    (status) => status === 200,
    'the simulator to pair',
    PROCESS_WAIT,
  );
  for (const from of numbers)
    await api.call('POST', `/simulator/${connection.id}/inbound`, { from, body: 'hola' });
  const { rows: tickets } = await eventually(
    () => db.query<{ id: number }>('select id from tickets order by id'),
    (result) => result.rows.length === numbers.length,
    'the tickets',
    PROCESS_WAIT,
  );
  await db.query(
    "update tickets set status = 'open', user_id = (select id from users where email = $1)",
    [email],
  );
  return { connectionId: connection.id, tickets };
};
