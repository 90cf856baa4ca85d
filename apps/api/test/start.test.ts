import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const dataDir = mkdtempSync(path.join(tmpdir(), 'atendi-start-'));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

// `npm start` as a newcomer runs it: embedded database, no ADMIN_PASSWORD, default log level.
describe('first start', () => {
  it('prints its banner, with the generated password, last; requests add nothing at info', async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SERVE_WEB: 'false',
      ADMIN_EMAIL: 'first@start.local',
      // A request slower than this is logged at info (log-redaction.test.ts tests that); a loaded
      // machine can take a second over the login's argon2, which is not what this test is about.
      SLOW_REQUEST_MS: '60000',
    };
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'ADMIN_PASSWORD', 'LOG_LEVEL'])
      delete env[name];
    let output = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: apiDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closing = '='.repeat(72);
    // Once the banner's closing line is the last thing written (or the process has ended).
    const bannerShown = new Promise<void>((resolve) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        if (output.trimEnd().endsWith(closing)) resolve();
      };
      child!.stdout?.on('data', read);
      child!.stderr?.on('data', read);
      child!.once('exit', () => resolve());
    });
    await bannerShown;
    expect(child.exitCode, output).toBeNull();

    const password = /Password {3}(\S+)/.exec(output)?.[1];
    expect(password).toBeTruthy();
    const bannerStart = output.lastIndexOf('Atendi is running');
    expect(bannerStart).toBeGreaterThan(0);
    const banner = output.slice(bannerStart);
    expect(banner).toContain(`API        http://localhost:${port}`);
    expect(banner).toContain('Email      first@start.local');
    expect(banner).toContain(dataDir);
    // The password is in the banner only, never in a JSON log line.
    expect(output.split(password!).length - 1).toBe(1);
    for (const line of output.split('\n').filter((l) => l.startsWith('{'))) {
      expect(line).not.toContain(password);
    }

    // The log stays quiet while the app is used: the banner remains the last thing on screen.
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'first@start.local', password }),
    });
    expect(login.status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await fetch(`${base}/version`)).status).toBe(200);

    // A second process on the same DATA_DIR refuses to start, and says why (two once split the data).
    const second = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: apiDir,
      env: { ...env, PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let secondOutput = '';
    second.stdout?.on('data', (chunk) => (secondOutput += chunk));
    second.stderr?.on('data', (chunk) => (secondOutput += chunk));
    const secondExit = await new Promise<number | null>((resolve) => second.once('close', resolve));
    expect(secondExit).toBe(1);
    expect(secondOutput).toContain(`DATA_DIR ${dataDir} is in use by another Atendi process`);
    expect(secondOutput).not.toContain('    at ');
    // The first goes on with its data.
    const again = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'first@start.local', password }),
    });
    expect(again.status).toBe(200);

    // Stopping logs "shutting down" on the same stdout, after anything those requests logged. Once the
    // process is gone and its output read to the end, the banner must come right before that line.
    const closed = new Promise<number | null>((resolve) => child!.once('close', resolve));
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    const lines = output.trimEnd().split('\n');
    const shutdown = lines.findIndex((line) => line.includes('shutting down'));
    expect(shutdown, output).toBeGreaterThan(0);
    expect(lines.slice(0, shutdown).join('\n').trimEnd().endsWith(closing), output).toBe(true);
  }, 120_000);
});
