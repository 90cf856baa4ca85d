import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { eventually } from '../../apps/api/test/eventually';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const ADMIN_EMAIL = 'e2e-admin@test.local';
export const ADMIN_PASSWORD = 'E2ePassword123';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

// Until the url answers; fails with the server's output if it exits or does not answer in time.
const waitFor = (url: string, child: ChildProcess, output: () => string) =>
  eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
      return fetch(url).then(
        (res) => res.ok,
        () => false,
      );
    },
    Boolean,
    `${url} to answer`,
    { timeoutMs: 90_000, everyMs: 250 },
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${output()}`);
  });

export type RunningServer = { apiUrl: string; webUrl: string; stop: () => Promise<void> };

// Runs the real product (built web app + API) the way `npm start` does, on a fresh database:
// embedded by default, or a new PostgreSQL database when TEST_DATABASE_URL is set.
const startOnce = async (extraEnv: Record<string, string>): Promise<RunningServer> => {
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atendi-e2e-'));
  let dropDatabase = async () => {};
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    PORT: String(apiPort),
    WEB_PORT: String(webPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    PUBLIC_API_URL: `http://localhost:${apiPort}`,
    PUBLIC_WEB_URL: `http://localhost:${webPort}`,
    LOG_LEVEL: 'warn',
    // The flows drive a virtual phone; on PostgreSQL the simulator is off unless asked for.
    SIMULATOR_ENABLED: 'true',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  if (process.env.TEST_DATABASE_URL) {
    const name = `atendi_e2e_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  const migrated = inject('migratedPgdata');
  if (migrated) cpSync(migrated, path.join(dataDir, 'pgdata'), { recursive: true });
  let output = '';
  // The compiled API, as `npm start` runs it (`npm run test:e2e` builds it first).
  if (!existsSync(path.join(root, 'apps/api/dist/main.js')))
    throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: path.join(root, 'apps/api'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const apiUrl = `http://localhost:${apiPort}`;
  const webUrl = `http://localhost:${webPort}`;
  try {
    await waitFor(`${apiUrl}/version`, child, () => output);
    await waitFor(`${webUrl}/runtime-config.js`, child, () => output);
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    apiUrl,
    webUrl,
    stop: async () => {
      let code = child.exitCode;
      if (code === null) {
        const exited = new Promise<number | null>((resolve) =>
          child.once('exit', (c) => resolve(c)),
        );
        child.kill('SIGTERM');
        code = await exited;
      }
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
      // SIGTERM must end the product cleanly (closing sockets, servers and the database).
      if (code !== 0)
        throw new Error(`server did not shut down cleanly (exit ${code}):\n${output}`);
    },
  };
};

// A free port can be taken by another test file's server between choosing it and listening on it: then
// start again on new ports.
// `env` adds to the product's environment (e.g. the Stripe keys of a billing flow).
export const startServer = async (env: Record<string, string> = {}): Promise<RunningServer> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(env);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
};
