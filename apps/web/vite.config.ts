/// <reference types="node" />
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin, type Rolldown } from 'vite';

// i18n.ts's languages; the config cannot import the app's modules (import.meta.glob).
const languages = ['es', 'en', 'pt-BR'];

// The production server answers /runtime-config.js itself; in dev and preview this plugin does.
const runtimeConfigPlugin = (apiUrl: string): Plugin => {
  const script = `window.__APP_CONFIG__ = ${JSON.stringify({ apiUrl })};\n`;
  const serve = (
    req: { url?: string },
    res: { setHeader: (name: string, value: string) => void; end: (body: string) => void },
    next: () => void,
  ) => {
    if (req.url?.split('?')[0] !== '/runtime-config.js') return next();
    res.setHeader('Content-Type', 'application/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(script);
  };
  return {
    name: 'atendi-runtime-config',
    configureServer: (server) => {
      server.middlewares.use(serve);
    },
    configurePreviewServer: (server) => {
      server.middlewares.use(serve);
    },
  };
};

// The files of public/ the app shell needs without a network: the offline page and its script, the
// manifest and its icons, the favicon.
const shellPublicFiles = (publicDir: string) => [
  'offline.html',
  'offline.js',
  'manifest.webmanifest',
  'favicon.svg',
  'push-sw.js',
  ...readdirSync(path.join(publicDir, 'icons')).map((name) => `icons/${name}`),
];

// The service worker (service-worker.js, ARCHITECTURE.md "Installable app") as dist/sw.js, after the
// build's version and the files it precaches: index.html, the entry chunk with every chunk and
// style it imports (the first load), the texts of each language and the public files above. Lazy
// chunks are cached when first loaded. The version is a hash of all of them and of the worker, so
// any change to what a browser would run installs a new worker (and the app offers the update).
const serviceWorkerPlugin = (): Plugin => {
  let publicDir = '';
  return {
    name: 'atendi-service-worker',
    apply: 'build',
    configResolved: (config) => {
      publicDir = config.publicDir;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const shell = new Set<string>();
        const add = (fileName: string) => {
          const file = bundle[fileName];
          if (!file || shell.has(fileName)) return;
          shell.add(fileName);
          if (file.type !== 'chunk') return;
          file.imports.forEach(add);
          file.viteMetadata?.importedCss.forEach(add);
        };
        if (!bundle['index.html']) this.error('index.html is not in the bundle yet');
        add('index.html');
        Object.values(bundle)
          .filter(
            (file): file is Rolldown.OutputChunk =>
              file.type === 'chunk' && (file.isEntry || file.name.startsWith('texts-')),
          )
          .forEach((chunk) => add(chunk.fileName));
        const source = readFileSync(path.resolve(import.meta.dirname, 'service-worker.js'), 'utf8');
        const hash = createHash('sha256').update(source);
        for (const fileName of [...shell].sort()) {
          const file = bundle[fileName];
          hash.update(fileName).update(file.type === 'chunk' ? file.code : file.source);
        }
        const publicFiles = shellPublicFiles(publicDir);
        for (const name of publicFiles) {
          hash.update(name).update(readFileSync(path.join(publicDir, name)));
        }
        const precache = [...shell, ...publicFiles].map((name) => `/${name}`);
        this.emitFile({
          type: 'asset',
          fileName: 'sw.js',
          source: [
            `const VERSION = ${JSON.stringify(hash.digest('hex').slice(0, 16))};`,
            `const PRECACHE = ${JSON.stringify(precache, null, 2)};`,
            '',
            source,
          ].join('\n'),
        });
      },
    },
  };
};

export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, process.cwd(), ''), ...process.env };
  const apiUrl = env.PUBLIC_API_URL || env.VITE_API_URL || `http://localhost:${env.PORT || '8080'}`;
  const port = Number(env.WEB_PORT) || 3000;
  return {
    plugins: [react(), runtimeConfigPlugin(apiUrl), serviceWorkerPlugin()],
    server: { port, strictPort: true },
    preview: { port, strictPort: true },
    build: {
      outDir: 'dist',
      sourcemap: true,
      rolldownOptions: {
        treeshake: {
          // @atendi/shared's files only declare (constants, functions, zod schemas): none runs
          // anything on import. Said here, the schemas of a file the app takes nothing from (most
          // of them) stay out of the bundle instead of being kept for the calls that build them.
          moduleSideEffects: [
            { test: /[\\/]packages[\\/]shared[\\/]src[\\/]/, sideEffects: false },
          ],
          // Building a zod schema (z.object(…), z.string().min(…)) has no effect but the schema:
          // one nobody uses is left out. Without this, every schema of an @atendi/shared file the
          // first load takes a constant or a helper from is built at start. (lib/zod-csp.ts calls
          // config(), not z.config(), which must stay.) Schemas built from another schema
          // (scheduleSchema.partial(), quickMessageSchema.shape…) still count as calls that may do
          // something, so the few of those files keep zod in the first load.
          manualPureFunctions: ['z'],
        },
        output: {
          // Vendor code changes less often than ours; separate chunks cache better. A group is one
          // chunk wherever its modules are used, so only code the first load (shell, inbox) needs
          // anyway gets one; a group holding a library only some pages use would put it in every
          // first load. The rest goes with the pages and dialogs that import it.
          codeSplitting: {
            groups: [
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              },
              // lib/zod-csp.ts, which turns zod's eval-compiled parsers off and must run before any
              // schema is created (main.tsx imports it first), with zod's core.js, which every
              // schema's code imports: a chunk runs before the chunks that import it, so schemas in
              // chunks of their own (@atendi/shared's, the forms') are created after it. The rest of
              // zod goes with the pages and dialogs whose forms use it.
              {
                name: 'zod-config',
                test: /node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$|[\\/]src[\\/]lib[\\/]zod-csp\.ts$/,
              },
              // Each language's texts, the shell's and every feature's: one chunk, which i18n.ts
              // fetches for the language the app starts in (or switches to), instead of one per file.
              ...languages.map((language) => ({
                name: `texts-${language}`,
                test: (id: string) =>
                  /[\\/]src[\\/](.+[\\/])?i18n[\\/]/.test(id) &&
                  (id.endsWith(`/${language}.json`) || id.endsWith(`.${language}.json`)),
              })),
              // Every other library the first load needs ($initial: imported statically from the
              // entry), and then our code it needs: two chunks instead of dozens of small ones that
              // it would otherwise be split into, as lazy pages share them (each chunk is compressed
              // on its own, so many small ones download more: 18 kB more when this was measured).
              { name: 'vendor', tags: ['$initial'], test: /node_modules/ },
              { name: 'shell', tags: ['$initial'] },
              // Loaded with the dashboard's charts only (React.lazy), never in the first load.
              {
                name: 'charts',
                test: /node_modules[\\/](chart\.js|react-chartjs-2|@kurkle)[\\/]/,
              },
              // Spreadsheet reading and writing, loaded by the imports and the sample sheet only.
              {
                name: 'sheets',
                test: /node_modules[\\/](read-excel-file|write-excel-file|fflate|saxen|unzipper-esm)[\\/]/,
              },
            ],
          },
        },
      },
    },
  };
});
