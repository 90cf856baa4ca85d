// `npm run build`: the API for production, one ES module `dist/main.js` that plain `node` runs.
// esbuild (the transform tsx and vitest already use) bundles src/ and the shared package's
// TypeScript sources; everything else in package.json's dependencies stays an import from
// node_modules. Type errors are `npm run typecheck`'s job, not this one's.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const { dependencies } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));

rmSync(dist, { recursive: true, force: true });
await build({
  // The server, and the operator's commands beside it (README "Storage", docker-compose.yml).
  entryPoints: ['main', 'storage-migrate', 'create-bucket'].map((name) =>
    path.join(here, `src/${name}.ts`),
  ),
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: Object.keys(dependencies).filter((name) => name !== '@atendi/shared'),
  sourcemap: true,
  logLevel: 'warning',
});
// Files the code finds beside itself (import.meta.url): src/db/client.ts's migrations folder and
// the worker threads of src/platform/spreadsheet.ts and src/platform/document-text.ts. dist/main.js
// sits at src/'s depth, so web-server.ts's ../../web/dist is the same folder from either.
cpSync(path.join(here, 'src/db/migrations'), path.join(dist, 'migrations'), { recursive: true });
cpSync(
  path.join(here, 'src/platform/spreadsheet-worker.mjs'),
  path.join(dist, 'spreadsheet-worker.mjs'),
);
cpSync(
  path.join(here, 'src/platform/document-text-worker.mjs'),
  path.join(dist, 'document-text-worker.mjs'),
);
