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
        output: {
          // Vendor code changes less often than ours; separate chunks cache better.
          codeSplitting: {
            groups: [
              { name: 'mui', test: /node_modules[\\/](@mui|@emotion)/ },
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              },
              { name: 'forms', test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/ },
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
              { name: 'vendor', test: /node_modules/ },
            ],
          },
        },
      },
    },
  };
});
