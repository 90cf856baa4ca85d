import path from 'node:path';
import { ConfigError, StartRefused } from './config';

type StartBannerInput = {
  apiUrl: string;
  // Absent when SERVE_WEB=false (the API runs alone).
  webUrl?: string;
  dataDir: string;
  // Where files go when not under DATA_DIR (the S3 bucket, without credentials).
  fileStore?: string;
  // PostgreSQL (DATABASE_URL) or the embedded database under DATA_DIR.
  databaseUrl?: string;
  logLevel: string;
  // Set only on the start that created the super user; password only when it was generated.
  admin?: { email: string; generatedPassword?: string };
};

// The database's address without its credentials: the banner is read over people's shoulders.
const describeDatabase = (databaseUrl: string | undefined, dataDir: string) => {
  if (!databaseUrl) return `embedded (${path.join(dataDir, 'pgdata')})`;
  try {
    const url = new URL(databaseUrl);
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
};

const generatedAdminLines = (email: string, password: string) => [
  '  Super user created. Log in with:',
  `    Email      ${email}`,
  `    Password   ${password}`,
  '    This password is shown only now: write it down (change it under Users).',
  '    (Set ADMIN_EMAIL / ADMIN_PASSWORD before the first start to choose them.)',
];

// The super user's one-time password alone, for a start that failed after creating it.
export const generatedAdminNotice = (email: string, password: string) =>
  `\n${generatedAdminLines(email, password).join('\n')}\n\n`;

// The plain text main.ts prints last at start-up: where to go, how to log in the first time, where
// data lives. It is console output, never a log line, because it may carry the one-time password.
export const startBanner = (input: StartBannerInput): string => {
  const rule = '='.repeat(72);
  const lines = ['', rule, '  Atendi is running', ''];
  if (input.webUrl) lines.push(`    Web app    ${input.webUrl}`);
  lines.push(`    API        ${input.apiUrl}`, `    API docs   ${input.apiUrl}/docs`, '');
  if (input.admin?.generatedPassword) {
    lines.push(...generatedAdminLines(input.admin.email, input.admin.generatedPassword), '');
  } else if (input.admin) {
    lines.push(`  Super user created: ${input.admin.email} (password from ADMIN_PASSWORD)`, '');
  }
  lines.push(
    input.fileStore
      ? `    Data       ${input.dataDir} (secrets, kept mail)`
      : `    Data       ${input.dataDir} (uploads, secrets, kept mail)`,
    ...(input.fileStore ? [`    Files      ${input.fileStore}`] : []),
    `    Database   ${describeDatabase(input.databaseUrl, input.dataDir)}`,
    `    Logs       level ${input.logLevel}; LOG_LEVEL=debug also logs every request`,
    rule,
    '',
  );
  return `${lines.join('\n')}\n`;
};

// What a failed start prints: the error and every cause below it. Drizzle's "Failed query: …" keeps
// the database's own words (code, detail, hint) in its cause.
export const startFailure = (error: unknown) => {
  if (error instanceof StartRefused || error instanceof ConfigError) return error.message;
  const lines = [
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  ];
  let cause = (error as { cause?: unknown } | null)?.cause;
  for (let depth = 0; cause && depth < 5; depth += 1) {
    const db = cause as { message?: string; code?: string; detail?: string; hint?: string };
    const extra = [
      db.code && `code ${db.code}`,
      db.detail && `detail: ${db.detail}`,
      db.hint && `hint: ${db.hint}`,
    ].filter(Boolean);
    lines.push(
      `Caused by: ${db.message ?? String(cause)}${extra.length ? ` (${extra.join('; ')})` : ''}`,
    );
    cause = (cause as { cause?: unknown }).cause;
  }
  return lines.join('\n');
};
