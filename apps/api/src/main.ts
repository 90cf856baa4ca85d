import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { bootstrap } from './db/bootstrap';
import { openDatabase } from './db/client';
import { buildWebServer, defaultWebDist } from './web-server';

const start = async () => {
  const config = loadConfig();
  const database = await openDatabase(config);
  await database.migrate();
  const app = await buildApp({ config, database });
  const log = app.log;
  log.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined },
    'database ready, migrations applied',
  );

  const seeded = await bootstrap(database.db, {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
  });
  if (seeded.generatedPassword) {
    // Printed once on the console (not through the logger) so it reaches the operator and no log store.
    process.stdout.write(
      `\n  Super user created: ${seeded.adminEmail}\n  Password (shown only now): ${seeded.generatedPassword}\n  Set ADMIN_EMAIL/ADMIN_PASSWORD to choose them.\n\n`,
    );
  } else if (seeded.createdAdmin) {
    log.info({ email: seeded.adminEmail }, 'super user created from ADMIN_EMAIL/ADMIN_PASSWORD');
  }

  await app.listen({ port: config.port, host: config.host });
  const web = config.serveWeb
    ? await buildWebServer({ dist: config.webDist || defaultWebDist, apiUrl: config.publicApiUrl })
    : undefined;
  if (web) await web.listen({ port: config.webPort, host: config.host });
  log.info(`API  ${config.publicApiUrl}  (docs ${config.publicApiUrl}/docs)`);
  if (web) log.info(`Web  ${config.publicWebUrl}`);

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
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
