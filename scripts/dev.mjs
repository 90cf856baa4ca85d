// `npm run dev`: API with reload on change, and the Vite dev server for the web app.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = {
  ...process.env,
  SERVE_WEB: 'false',
  DATA_DIR: path.resolve(root, process.env.DATA_DIR ?? 'data'),
};
const children = [
  spawn('npm', ['run', 'dev', '--workspace', 'apps/api'], { cwd: root, stdio: 'inherit', env }),
  spawn('npm', ['run', 'dev', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit', env }),
];
const stop = (signal) => children.forEach((child) => child.kill(signal));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exit(code ?? 0);
  });
