// `npm start`: builds the API and the web app when their sources are newer than their builds, then
// runs the compiled API with plain node (it also serves the web app on WEB_PORT). Signals are
// passed on so shutdown stays clean.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(`Atendi needs Node.js 24 or newer; this is ${process.version}.`);
  process.exit(1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const newest = (target) => {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newest(path.join(target, name))));
};

// Runs the workspace's `build` when `built` is missing or older than any of `sources`.
const buildIfStale = (name, workspace, built, sources) => {
  const output = path.join(root, built);
  const stale =
    !existsSync(output) ||
    Math.max(...sources.map((s) => newest(path.join(root, s)))) > statSync(output).mtimeMs;
  if (!stale) return;
  console.log(`Building the ${name}…`);
  const result = spawnSync('npm', ['run', 'build', '--workspace', workspace], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

buildIfStale('API', 'apps/api', 'apps/api/dist/main.js', [
  'apps/api/src',
  'apps/api/build.mjs',
  'apps/api/package.json',
  'packages/shared/src',
]);

const serveWeb = !['false', '0', 'no', 'off'].includes((process.env.SERVE_WEB ?? '').toLowerCase());
if (serveWeb && !process.env.WEB_DIST)
  buildIfStale('web app', 'apps/web', 'apps/web/dist/index.html', [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    'packages/shared/src',
  ]);

const api = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
  cwd: path.join(root, 'apps/api'),
  stdio: 'inherit',
  env: {
    NODE_ENV: 'production',
    ...process.env,
    DATA_DIR: path.resolve(root, process.env.DATA_DIR ?? 'data'),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
