import { z } from 'zod';

// Object schemas decide when they are created whether to compile a parser with eval, which the
// Content-Security-Policy forbids (zod falls back, but the browser reports the attempt). main.tsx
// imports this first, before any schema exists.
z.config({ jitless: true });
