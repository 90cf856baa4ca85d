import { Redis } from 'ioredis';
import { buildApp } from './app';
import { waitForService } from './platform/wait-for';
import { loadConfig } from './config';
import { bootstrap, type BootstrapResult } from './db/bootstrap';
import { openDatabase } from './db/client';
import { generatedAdminNotice, startBanner, startFailure } from './start-banner';
import { buildWebServer, defaultWebDist } from './web-server';

// Redis is waited for before anything subscribes to it: a command refused at start would end the
// process.
const waitForRedis = async (url: string) => {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await waitForService('Redis', async () => {
      if (client.status !== 'ready') {
        client.disconnect();
        await client.connect();
      }
      await client.ping();
    });
  } finally {
    client.disconnect();
  }
};

// A password generated on this start that the banner has not shown yet (see the failure path below).
let unshownAdmin: BootstrapResult | undefined;

const start = async () => {
  const config = loadConfig();
  const database = await openDatabase(config);
  if (config.redisUrl) await waitForRedis(config.redisUrl);
  const seeded = await database.oneNodeAtATime(async () => {
    await database.migrate();
    return bootstrap(database.db, {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
    });
  });
  if (seeded.generatedPassword) unshownAdmin = seeded;
  // Log lines go through process.stdout like the banner, so they appear in the order written (pino's
  // own stdout writer is asynchronous: a line logged before the banner could show after it).
  const app = await buildApp({ config, database, logStream: process.stdout });
  const log = app.log;
  log.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined },
    'database ready, migrations applied',
  );

  await app.listen({ port: config.port, host: config.host });
  const web = config.serveWeb
    ? await buildWebServer({ dist: config.webDist || defaultWebDist, apiUrl: config.publicApiUrl })
    : undefined;
  if (web) await web.listen({ port: config.webPort, host: config.host });
  // Start-up work that may log (the first job runs) ends before the banner, so the banner is last.
  await app.deps.jobs.idle();
  // Console output, not a log line: it may carry the one-time password, which no log store may keep.
  process.stdout.write(
    startBanner({
      apiUrl: config.publicApiUrl,
      webUrl: web ? config.publicWebUrl : undefined,
      dataDir: config.dataDir,
      fileStore: app.deps.files.driver === 's3' ? app.deps.files.describe() : undefined,
      databaseUrl: config.databaseUrl,
      logLevel: config.logLevel,
      admin: seeded.createdAdmin
        ? { email: seeded.adminEmail, generatedPassword: seeded.generatedPassword }
        : undefined,
    }),
  );
  unshownAdmin = undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Readiness answers 503 from now on; the node keeps serving while balancers take it out.
    app.deps.health.drain();
    const drainMs = config.shutdownDrainSeconds * 1000;
    if (drainMs > 0) {
      log.info({ seconds: config.shutdownDrainSeconds }, 'draining before closing');
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    const timer = setTimeout(() => {
      log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await web?.close();
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
};

start().catch((error) => {
  // The super user exists now; a start that failed later (a port in use) must still hand over its password.
  if (unshownAdmin?.generatedPassword) {
    process.stdout.write(
      generatedAdminNotice(unshownAdmin.adminEmail, unshownAdmin.generatedPassword),
    );
  }
  process.stderr.write(`${startFailure(error)}\n`);
  process.exit(1);
});
