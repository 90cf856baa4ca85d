import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { bootstrap, type BootstrapResult } from './db/bootstrap';
import { openDatabase } from './db/client';
import { generatedAdminNotice, startBanner } from './start-banner';
import { buildWebServer, defaultWebDist } from './web-server';

// A password generated on this start that the banner has not shown yet (see the failure path below).
let unshownAdmin: BootstrapResult | undefined;

const start = async () => {
  const config = loadConfig();
  const database = await openDatabase(config);
  await database.migrate();
  // Log lines go through process.stdout like the banner, so they appear in the order written (pino's
  // own stdout writer is asynchronous: a line logged before the banner could show after it).
  const app = await buildApp({ config, database, logStream: process.stdout });
  const log = app.log;
  log.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined },
    'database ready, migrations applied',
  );

  const seeded = await bootstrap(database.db, {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
  });
  if (seeded.generatedPassword) unshownAdmin = seeded;
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
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
