import { config } from 'zod/v4/core';

// Object schemas decide when they are created whether to compile a parser with eval, which the
// Content-Security-Policy forbids (zod falls back, but the browser reports the attempt). main.tsx
// imports this first, before any schema exists. zod's core only: the first load creates no schema,
// and the schemas' code comes with the pages and dialogs that use them.
config({ jitless: true });
