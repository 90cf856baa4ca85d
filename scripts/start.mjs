// `npm start`: builds the web app when its sources are newer than the build, then runs the API
// (which also serves the web app on WEB_PORT). Signals are passed on so shutdown stays clean.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(`Atendi needs Node.js 24 or newer; this is ${process.version}.`);
  process.exit(1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'apps/web/dist/index.html');
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'packages/shared/src',
];

const newest = (target) => {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newest(path.join(target, name))));
};

const serveWeb = !['false', '0', 'no', 'off'].includes((process.env.SERVE_WEB ?? '').toLowerCase());
if (serveWeb && !process.env.WEB_DIST) {
  const stale =
    !existsSync(built) ||
    Math.max(...sources.map((s) => newest(path.join(root, s)))) > statSync(built).mtimeMs;
  if (stale) {
    console.log('Building the web app…');
    const result = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

const api = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
