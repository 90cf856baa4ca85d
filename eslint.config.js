import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Layers and boundaries (ARCHITECTURE.md): each rule is a pattern on the path an import names, so a
// boundary holds whatever the path looks like. apps/api/test/boundaries.test.ts proves each one fails.
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
// One block per depth of file below a module's or feature's folder `dir` (1: directly in it), for
// patterns that count the `../` to its parent. A later block's rule replaces an earlier one's.
const byDepth = (dir, ext, block) =>
  [1, 2, 3, 4].map((depth) => ({
    files: [`${dir}/${'*/'.repeat(depth - 1)}*.${ext}`],
    ...block(depth),
  }));

const appImport = {
  regex: '^(\\.\\.?/)+app$',
  message: 'Depend on AppDeps from deps.ts, never on the app that assembles the modules.',
};
// From modules/<a>/…, any file inside another module, `../<b>/<file>` (or `../../modules/<b>/<file>`):
// only `../<b>`, its index.ts, is allowed.
const moduleInternals = (depth) => ({
  regex: `^(?:\\.\\./){${depth}}(?:\\.\\./modules/)?[^./][^/]*/`,
  message:
    'Another module is reached only through its public surface ../<module> (its index.ts): export there what other modules need.',
});
const ticketsToMessages = {
  regex: '^(\\.\\./)+(modules/)?messages(/|$)',
  message:
    'tickets never imports messages (messages depends on tickets): use the TicketMessages port, deps.ticketMessages.',
};
const infraToModules = {
  regex: '^(\\.\\./)+(modules|deps)(/|$)',
  message:
    'Infrastructure (db, platform, realtime, channels, jobs, events) never imports a module or deps.ts: modules build on it. Take what it needs as a parameter and let app.ts wire it.',
};
// From features/<a>/…, any path up to features/ and into another folder there.
const otherFeature = (depth) => ({
  regex: `^(\\.\\./){${depth}}(?!\\.\\./)|^(\\.\\./){${depth + 1}}features(/|$)`,
  message:
    'A feature never imports another feature: move what both need to components/, lib/ or api/ (inside a feature, import with ./).',
});
// Screens call routes through their contracts (ARCHITECTURE.md "Route contracts"), never by a path
// typed by hand: the client's raw request stays inside api/.
const rawRequest = {
  regex: '(^|/)api/http-client$',
  importNames: ['request'],
  message:
    'Call a route through its contract: call(contract.operation, { params, query, body }) from api/http-client.',
};
const sharedToFeature = {
  regex: '^(\\.\\./)+features(/|$)',
  message:
    'Shared web code (api, components, lib, i18n) never imports a feature: features build on it.',
};

// Only the job queue writes its table: elsewhere, work is queued, found and withdrawn through
// jobs/queue.ts (enqueueJobs, enqueueJobsFrom …), so every job is checked against its queue's schema.
const jobsTableMessage =
  'Only jobs/ writes the jobs table: queue work with enqueueJobs / enqueueJobsFrom / insertJobsSql (jobs/queue.ts), or add what you need there.';
const jobsTableSql = '/\\b(into|from|update|join)\\s+"?jobs"?\\b/i';
const jobsTable = [
  'error',
  {
    selector: `ImportDeclaration[source.value=/(^|\\/)db\\/schema(\\/jobs)?$/] ImportSpecifier[imported.name='jobs']`,
    message: jobsTableMessage,
  },
  { selector: `TemplateElement[value.raw=${jobsTableSql}]`, message: jobsTableMessage },
  { selector: `Literal[value=${jobsTableSql}]`, message: jobsTableMessage },
];
// Background work is registered in one place, apps/api/src/background.ts: a queue, recurring job or
// event listener registered anywhere else (a routes plugin) is an error.
const registersBackground = {
  selector: [
    'CallExpression[callee.property.name=/^(define|every|onDurable|record|recordAll|recordInOrder|afterCommit)$/]:matches([callee.object.name=/^(jobs|events)$/], [callee.object.property.name=/^(jobs|events)$/])',
    "CallExpression[callee.property.name='on']:matches([callee.object.name='events'], [callee.object.property.name='events'])",
    "CallExpression[callee.property.name='onEvent']:matches([callee.object.name='channels'], [callee.object.property.name='channels'])",
  ].join(', '),
  message:
    'Queues, recurring jobs and event listeners are registered in apps/api/src/background.ts only: export the worker or listener and list it there.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', 'apps/api/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
    },
  },
  {
    // app.ts assembles the modules; the modules depend on deps.ts, not on it.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/app.ts', 'apps/api/src/main.ts', '**/*.test.ts'],
    rules: restrict(appImport),
  },
  ...byDepth('apps/api/src/modules/*', 'ts', (depth) => ({
    ignores: ['**/*.test.ts'],
    rules: restrict(appImport, moduleInternals(depth)),
  })),
  ...byDepth('apps/api/src/modules/tickets', 'ts', (depth) => ({
    ignores: ['**/*.test.ts'],
    rules: restrict(appImport, moduleInternals(depth), ticketsToMessages),
  })),
  {
    files: ['apps/api/src/{db,platform,realtime,channels,jobs,events}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(appImport, infraToModules),
  },
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/jobs/**', 'apps/api/src/db/**', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': jobsTable },
  },
  {
    // Replaces the block above for these files (the same rule): both lists apply.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/background.ts', 'apps/api/src/{jobs,db,events}/**', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': [...jobsTable, registersBackground] },
  },
  ...byDepth('apps/web/src/features/*', '{ts,tsx}', (depth) => ({
    rules: restrict(otherFeature(depth), rawRequest),
  })),
  {
    files: ['apps/web/src/{api,components,lib,i18n}/**/*.{ts,tsx}'],
    rules: restrict(sharedToFeature),
  },
  {
    files: ['apps/web/src/{components,lib,i18n}/**/*.{ts,tsx}'],
    // A shared component's test may fetch through the raw client (a paged list of any rows).
    ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: restrict(sharedToFeature, rawRequest),
  },
  {
    files: ['apps/web/src/app/**/*.{ts,tsx}'],
    rules: restrict(rawRequest),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Scripts the browser runs as they are written (no bundler): the offline page's and the service
  // worker, each with its own globals.
  {
    files: ['apps/web/public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    files: ['apps/web/service-worker.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } },
  },
);
