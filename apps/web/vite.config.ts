/// <reference types="node" />
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

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

export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, process.cwd(), ''), ...process.env };
  const apiUrl = env.PUBLIC_API_URL || env.VITE_API_URL || `http://localhost:${env.PORT || '8080'}`;
  const port = Number(env.WEB_PORT) || 3000;
  return {
    plugins: [react(), runtimeConfigPlugin(apiUrl)],
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
        },
        output: {
          // Vendor code changes less often than ours; separate chunks cache better. A group is one
          // chunk wherever its modules are used, so only libraries the first load (login, shell,
          // inbox) needs anyway get one; a group holding a library only some pages use would put it
          // in every first load. The rest goes with the pages that import it.
          codeSplitting: {
            groups: [
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              },
              // zod with lib/zod-csp.ts, which turns its eval-compiled parsers off and must run
              // before any schema is created (main.tsx imports it first). A chunk runs before the
              // chunks that import it, so @atendi/shared's schemas, in chunks of their own, would
              // otherwise be created first. The login form needs zod: first load anyway.
              { name: 'zod', test: /node_modules[\\/]zod[\\/]|[\\/]src[\\/]lib[\\/]zod-csp\.ts$/ },
              // Every text of both languages (i18n.ts loads them all at start): a chunk of its own,
              // so a text change leaves the code's chunks cached.
              { name: 'texts', test: /[\\/]src[\\/](.+[\\/])?i18n[\\/][^\\/]+\.json$/ },
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
