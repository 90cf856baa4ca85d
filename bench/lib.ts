import { spawn, execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { format } from 'prettier';
import { pgliteExtensions } from '../apps/api/src/db/client';
import { eventually } from '../apps/api/test/eventually';

// What the bench scripts share: database URLs, the product started as `npm start` runs it, an HTTP
// client, percentiles and the results folder.

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const resultsDir = path.join(root, 'bench', 'results');

export const SUPER_EMAIL = 'super@bench.local';
export const ADMIN_EMAIL = 'admin@bench.local';
// The agent in queues 1 and 3 (request b).
export const AGENT_EMAIL = 'agent2@bench.local';
export const PASSWORD = 'Bench12345';
export const COMPANY_NAME = 'Bench';

export const requestsDatabaseUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/atendi_bench';

// The same server, another database.
export const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

export const ingestDatabaseUrl =
  process.env.BENCH_INGEST_DATABASE_URL ?? withDatabase(requestsDatabaseUrl, 'atendi_bench_ingest');
export const campaignsDatabaseUrl =
  process.env.BENCH_CAMPAIGNS_DATABASE_URL ??
  withDatabase(requestsDatabaseUrl, 'atendi_bench_campaigns');
const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

// Creates the database when missing; with fresh, drops it first.
export const ensureDatabase = async (url: string, fresh: boolean) => {
  const name = databaseName(url);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unusual database name: ${name}`);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
    return { created: fresh || !rowCount };
  } finally {
    await admin.end();
  }
};

// --- The embedded database (PGlite), as `npm start` opens it without DATABASE_URL ---

// What the bench scripts need of a database connection: pg's Client and PGlite both answer { rows }.
export type Sql = {
  query: <T extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ) => Promise<{ rows: T[] }>;
};

// A bench's PGlite directory is the API's DATA_DIR: the database itself is in its pgdata folder, as
// apps/api/src/db/client.ts's openDatabase puts it. Kept under /tmp, never in the repository.
const pgliteDefaultDir = path.join(tmpdir(), 'atendi-bench-pglite');
const pgliteDataFolder = (dataDir: string) => path.join(dataDir, 'pgdata');

// `--pglite` (the default directory) or `--pglite <dir>`; undefined without the option.
export const pgliteOption = (options: ReturnType<typeof args>, fallback = pgliteDefaultDir) => {
  const dir = options.text('pglite');
  if (dir !== undefined) return path.resolve(dir);
  return options.flag('pglite') ? fallback : undefined;
};

// Opens the directory's database in this process, with pg_trgm as the API loads it. Only one process
// may have a PGlite directory open: never while the API runs on it.
export const openPgliteDir = async (dataDir: string) => {
  const folder = pgliteDataFolder(dataDir);
  mkdirSync(folder, { recursive: true });
  const client = new PGlite(folder, { extensions: pgliteExtensions });
  await client.waitReady;
  return client;
};
export const pgliteSql = (client: PGlite): Sql => ({
  query: async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    client.query<T>(text, values),
});

// Deletes a bench's PGlite directory, refusing anything that does not look like one.
export const removePgliteDir = (dataDir: string) => {
  if (!existsSync(dataDir)) return;
  const entries = readdirSync(dataDir);
  const isBench =
    entries.length === 0 || existsSync(path.join(pgliteDataFolder(dataDir), 'PG_VERSION'));
  if (!isBench || path.resolve(dataDir) === path.resolve(root) || dataDir === '/')
    throw new Error(
      `${dataDir} is not a bench PGlite directory (no pgdata/PG_VERSION): not deleted`,
    );
  rmSync(dataDir, { recursive: true, force: true });
};

const pglitePackageVersion = () => {
  try {
    const file = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
};

// The API process's memory from /proc (Linux): resident now and at its peak, MiB.
export const processMemoryMiB = (pid: number) => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
    return { rss: Math.round(kib('VmRSS') / 1024), peak: Math.round(kib('VmHWM') / 1024) };
  } catch {
    return { rss: NaN, peak: NaN };
  }
};

export const args = (argv = process.argv.slice(2)) => {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) continue;
    const [key, inline] = arg.slice(2).split('=', 2);
    if (inline !== undefined) values.set(key, inline);
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) values.set(key, argv[++i]);
    else flags.add(key);
  }
  return {
    flag: (name: string) => flags.has(name),
    int: (name: string, fallback: number) => {
      const raw = values.get(name);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
      return n;
    },
    text: (name: string) => values.get(name),
  };
};

// --- Measuring ---

const percentile = (sorted: number[], p: number) => {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
};

export const summarize = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
};

// min / median / max of one figure over several runs.
export const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1] };
};

export const ms = (value: number, digits = 1) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';

// Seeded PRNG (mulberry32): the same dataset on every machine.
export const prng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

// CPU seconds a process has used (Linux /proc), to tell what the API process spent.
export const cpuSeconds = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
};
// Every postgres process on this machine: the server is shared, so this is an upper bound.
export const postgresCpuSeconds = () => {
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        sum += cpuSeconds(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return sum;
};

// The whole machine's CPU time so far (Linux /proc/stat, in seconds of one core): busy, idle, and
// waiting for the disk. Between two readings it tells whether the cores were the limit.
export const machineCpuSeconds = () => {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks.map(Number);
  return {
    busy: (user + nice + system + irq + softirq + steal) / 100,
    idle: idle / 100,
    iowait: iowait / 100,
  };
};

// The bench's own process: its client competes with the API and the database for the same cores.
export const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

// --- Where it ran ---

// databaseUrl: a PostgreSQL server's (its version read through the server's `postgres` database: the
// bench's own may not exist yet); { pglite: true }: the embedded database (its version read from an
// in-memory instance).
export const machine = async (database: string | { pglite: true }) => {
  let postgres: string;
  if (typeof database === 'string') {
    const client = new pg.Client({ connectionString: withDatabase(database, 'postgres') });
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    await client.end();
    postgres = rows[0].server_version;
  } else {
    const client = new PGlite();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    await client.close();
    postgres = `${rows[0].server_version} (PGlite ${pglitePackageVersion()}, embedded)`;
  }
  let commit = 'unknown';
  let dirty = false;
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
    dirty = execSync('git status --porcelain', { cwd: root }).toString().trim().length > 0;
  } catch {
    // not a git checkout
  }
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    node: process.version,
    postgres,
    commit,
    workingTreeDirty: dirty,
    at: new Date().toISOString(),
  };
};

// Formatted as the repository's prettier check wants it.
export const saveResult = async (name: string, result: unknown) => {
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${name}.json`);
  writeFileSync(file, await format(JSON.stringify(result), { parser: 'json' }));
  return path.relative(root, file);
};

// --- The product, as `npm start` runs it (the compiled apps/api/dist/main.js), API only ---

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

export type RunningApi = { url: string; pid: number; stop: () => Promise<void> };

// database: a PostgreSQL URL (the API's DATABASE_URL, a throw-away DATA_DIR), or { pglite: dir }: the
// API on its embedded database, as `npm start` runs it without DATABASE_URL, with DATA_DIR = dir (the
// database in dir/pgdata, which the bench seeded; kept when the API stops).
export const startApi = async (
  database: string | { pglite: string },
  env: Record<string, string> = {},
): Promise<RunningApi> => {
  const port = await freePort();
  const pglite = typeof database === 'string' ? undefined : database.pglite;
  const dataDir = pglite ?? mkdtempSync(path.join(tmpdir(), 'atendi-bench-'));
  let output = '';
  // BENCH_API_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to see where the API spends its time.
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', 'dist/main.js'], {
    cwd: path.join(root, 'apps/api'),
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(typeof database === 'string' ? { DATABASE_URL: database } : {}),
      SERVE_WEB: 'false',
      ADMIN_EMAIL: SUPER_EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      JWT_SECRET: randomBytes(32).toString('hex'),
      JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
      // A run outlasts the default 15 minutes; the logins happen once.
      ACCESS_TOKEN_TTL: String(24 * 3600),
      LOGIN_RATE_LIMIT: '1000',
      // The stand-ins of outside services (the Graph API of bench/webhooks.ts) listen on loopback.
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8',
      // Per-request info lines would cost both processes time and say nothing here.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  // PGlite opens a large database in WASM: give it longer.
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`API exited (${child.exitCode})`);
      return fetch(`${url}/version`).then(
        (res) => res.ok,
        () => false,
      );
    },
    Boolean,
    'the API to answer',
    { timeoutMs: pglite ? 600_000 : 120_000, everyMs: 250 },
  ).catch((error: unknown) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw new Error(`${String(error)}\n${output}`);
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      // A process killed by a signal has exited too (exitCode stays null).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!pglite) rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

// --- HTTP ---

export const login = async (apiUrl: string, email: string, password = PASSWORD) => {
  const res = await fetch(`${apiUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { token: string; user: { id: number; companyId: number } };
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(body)}`);
  return { token: body.token, userId: body.user.id, companyId: body.user.companyId };
};

export const api = async <T = unknown>(
  apiUrl: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> => {
  const res = await fetch(`${apiUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
};

// How long the bench waits for what it asked, and how often it looks (eventually's options).
export const BENCH_WAIT = { timeoutMs: 30_000, everyMs: 50 };

// Runs count tasks with at most `limit` in flight.
export const pool = async (count: number, limit: number, work: (i: number) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        await work(i);
      }
    }),
  );
};

// What the bench reads of a company-{id}-appMessage socket event.
export type AppMessageEvent = {
  action: string;
  message: { body: string; fromMe: boolean; ticketId: number };
};
