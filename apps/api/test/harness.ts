import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { databaseUrl as adminUrl } from './pg-url';
import { inject as injectProvided, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { settingDefaults, type CompanyStatus, type Profile } from '@atendi/shared';
import { buildApp, type App } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { bootstrap } from '../src/db/bootstrap';
import {
  openPglite,
  openPostgres,
  pgliteExtensions,
  type Database,
  type Db,
} from '../src/db/client';
import { companies, plans, settings, users, whatsapps } from '../src/db/schema';
import type { Mail } from '../src/platform/mailer';
import { hashPassword } from '../src/platform/passwords';

export const SUPER_EMAIL = 'super@test.local';
export const PASSWORD = 'Secret123';

// A clean database for one test file: a copy of the migrated template.
const openTestDatabase = async (): Promise<Database> => {
  const url = process.env.TEST_DATABASE_URL;
  const template = injectProvided('pgTemplate');
  if (url && template) {
    const name = `${injectProvided('pgPrefix')}${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl(url, 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const database = await openPostgres(adminUrl(url, name), 5);
    return {
      ...database,
      close: async () => {
        await database.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dump = new Blob([readFileSync(injectProvided('pgliteDump'))]);
  return openPglite(new PGlite({ loadDataDir: dump, extensions: pgliteExtensions }));
};

export type TestContext = {
  app: App;
  db: Db;
  // The test database's address on PostgreSQL (undefined on PGlite).
  databaseUrl?: string;
  config: Config;
  mail: Mail[];
  // Stops the app as a process exit would (the database stays) and starts a new one on the same data.
  restart: () => Promise<App>;
  // Another API node on the same database (closed with the context). On PGlite it shares the one
  // in-process database and keeps its own session leases: start no WhatsApp session there.
  spawnNode: () => Promise<App>;
  close: () => Promise<void>;
};

export const createTestApp = async (
  env: Record<string, string> = {},
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<TestContext> => {
  const dataDir = mkdtempSync(path.join(injectProvided('dataRoot'), 'data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: SUPER_EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    // No background takeover of the fixtures' connections (rows written CONNECTED that nothing runs)
    // unless a test asks for it.
    SESSION_CLAIM_INTERVAL: '0',
    // The tests' stand-ins of outside services (Typebot, n8n, the Graph API, OpenAI) listen on
    // 127.0.0.1, which company-supplied URLs may not reach otherwise (the rest of 127/8 stays refused).
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,::1',
    ...env,
  });
  const database = await openTestDatabase();
  await bootstrap(database.db, { adminEmail: SUPER_EMAIL, adminPassword: PASSWORD });
  const mail: Mail[] = [];
  const start = async () => {
    const built = await buildApp({
      config,
      database,
      ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
      mailer: { send: async (m) => void mail.push(m) },
    });
    await built.ready();
    return built;
  };
  const nodes: { app: App; database: Database }[] = [];
  const context: TestContext = {
    app: await start(),
    db: database.db,
    databaseUrl: database.connectionString,
    config,
    mail,
    restart: async () => {
      await context.app.close();
      context.app = await start();
      return context.app;
    },
    spawnNode: async () => {
      const own = database.connectionString
        ? await openPostgres(database.connectionString, 3)
        : { ...database, close: async () => undefined };
      const node = await buildApp({
        config,
        database: own,
        logger: false,
        mailer: { send: async () => undefined },
      });
      await node.ready();
      nodes.push({ app: node, database: own });
      return node;
    },
    close: async () => {
      for (const node of nodes) {
        await node.app.close();
        await node.database.close();
      }
      await context.app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return context;
};

// The app a worker's test files share, for those that need nothing of their own: vitest runs a
// worker's files one after another in one module graph (the api project's `isolate: false`), so
// this module, and the app, outlive a file. Each test makes its own company. A file keeps its own
// app (createTestApp) when it needs its own configuration, restarts the app or adds nodes, changes
// the app itself (listeners, draining, listening by hand), the schema or the platform-wide rows
// (plans, helps, announcements), counts rows across every company, or counts calls on the app's
// objects (its background work makes some too). A spy on the shared app is restored whatever the
// test's outcome (onTestFinished). The app ends with its worker; the global setup's teardown removes
// its data and database.
export type SharedTestContext = Omit<TestContext, 'restart' | 'spawnNode' | 'close'>;
let shared: Promise<TestContext> | undefined;
export const sharedTestApp = (): Promise<SharedTestContext> => (shared ??= createTestApp());

export type Session = { token: string; userId: number; companyId: number; cookie: string };

export const login = async (app: App, email: string, password = PASSWORD): Promise<Session> => {
  const res = await app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email, password },
  });
  if (res.statusCode !== 200)
    throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  const cookie = res.cookies.find((c) => c.name === 'jrt');
  return {
    token: body.token,
    userId: body.user.id,
    companyId: body.user.companyId,
    cookie: cookie?.value ?? '',
  };
};

export const auth = (session: Pick<Session, 'token'>) => ({
  authorization: `Bearer ${session.token}`,
});

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// One authenticated request, as the web client would send it.
export const inject = (
  app: App,
  session: Pick<Session, 'token'>,
  method: Method,
  url: string,
  payload?: object,
) => app.inject({ method, url, headers: auth(session), payload });

// Moves only the clock (Date), so database and socket timers keep running. Undo with vi.useRealTimers().
export const travel = (ms: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
};

let sequence = 0;
const unique = (prefix: string) =>
  `${prefix}${process.pid}-${Date.now().toString(36)}-${(sequence += 1)}`;

// Builds a company with an admin directly in the database (fast, no HTTP); returns ids and credentials.
export const makeCompany = async (
  db: Db,
  options: {
    planId?: number;
    status?: CompanyStatus;
    dueDate?: Date | null;
    planLimits?: Partial<typeof plans.$inferInsert>;
  } = {},
) => {
  let planId = options.planId;
  if (!planId) {
    const [plan] = await db
      .insert(plans)
      .values({
        name: unique('plan-'),
        users: 0,
        connections: 0,
        queues: 0,
        value: 10,
        ...options.planLimits,
      })
      .returning();
    planId = plan.id;
  }
  const [company] = await db
    .insert(companies)
    .values({
      name: unique('Company '),
      email: `${unique('c')}@test.local`,
      planId,
      status: options.status ?? 'active',
      dueDate: options.dueDate ?? null,
    })
    .returning();
  await db.insert(settings).values(
    Object.entries(settingDefaults).map(([key, value]) => ({
      companyId: company.id,
      key,
      value,
    })),
  );
  const admin = await makeUser(db, company.id, 'admin');
  return { company, admin, planId };
};

const passwordHash = hashPassword(PASSWORD);

export const makeUser = async (
  db: Db,
  companyId: number,
  profile: Profile = 'user',
  extra: Partial<typeof users.$inferInsert> = {},
) => {
  const [user] = await db
    .insert(users)
    .values({
      companyId,
      name: unique('User '),
      email: `${unique('u')}@test.local`,
      passwordHash: await passwordHash,
      profile,
      ...extra,
    })
    .returning();
  return user;
};

// A connection row written directly (no session is started for it).
export const makeWhatsapp = async (
  db: Db,
  companyId: number,
  extra: Partial<typeof whatsapps.$inferInsert> = {},
) =>
  (
    await db
      .insert(whatsapps)
      .values({ companyId, name: unique('Connection '), provider: 'simulator', ...extra })
      .returning()
  )[0];

// A connection of a new company (or of the one given), as the ids a channel session works with.
export const makeConnectionIds = async (db: Db, companyId?: number) => {
  const owner = companyId ?? (await makeCompany(db)).company.id;
  const row = await makeWhatsapp(db, owner, { provider: 'beta' });
  return { whatsappId: row.id, companyId: owner };
};

export const superUser = async (db: Db) =>
  (await db.select().from(users).where(eq(users.email, SUPER_EMAIL)))[0];
