import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { folderGraph, importCycles, importGraph } from './import-cycles';

// The layer rules of eslint.config.js (ARCHITECTURE.md "Layers and boundaries"), each tried on an
// import that breaks it and one that keeps it, so a rule cannot vanish or widen unnoticed.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

// The boundary messages ESLint gives `file` for one import of `from`.
const lintImport = async (file: string, from: string, name = 'x') => {
  const [result] = await eslint.lintText(
    `import { ${name} } from '${from}';\nexport { ${name} };\n`,
    {
      filePath: path.join(root, file),
    },
  );
  return result.messages
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
};

const MODULE_INTERNALS = 'only through its public surface';
const TICKETS_TO_MESSAGES = 'tickets never imports messages';
const INFRA = 'Infrastructure (db, platform, realtime, channels, jobs, events) never imports';
const APP = 'never on the app that assembles the modules';
const FEATURES = 'A feature never imports another feature';
const SHARED_WEB = 'Shared web code (api, components, lib, i18n) never imports a feature';
const RAW_REQUEST = 'Call a route through its contract';

describe('layer rules', () => {
  it.each([
    // A module reaches another only through its index.ts, not even its service file.
    ['apps/api/src/modules/tags/tags.service.ts', '../tickets/core/ticket-views', MODULE_INTERNALS],
    [
      'apps/api/src/modules/tags/tags.service.ts',
      '../tickets/core/tickets.service',
      MODULE_INTERNALS,
    ],
    [
      'apps/api/src/modules/plans/plans.service.ts',
      '../companies/companies.service',
      MODULE_INTERNALS,
    ],
    [
      'apps/api/src/modules/tags/tags.service.ts',
      '../../modules/tickets/core/visibility',
      MODULE_INTERNALS,
    ],
    [
      'apps/api/src/modules/tickets/inbound/ingest.ts',
      '../../settings/settings.service',
      MODULE_INTERNALS,
    ],
    ['apps/api/src/modules/contacts/contacts.upload.ts', '../messages/outbox', MODULE_INTERNALS],
    ['apps/api/src/modules/tags/tags.service.ts', '../../app', APP],
    // Messages depend on tickets, never the other way round.
    ['apps/api/src/modules/tickets/bots/queue-bot.ts', '../../messages', TICKETS_TO_MESSAGES],
    [
      'apps/api/src/modules/tickets/inbound/ingest.ts',
      '../../../modules/messages',
      TICKETS_TO_MESSAGES,
    ],
    // Infrastructure knows no module.
    ['apps/api/src/db/bootstrap.ts', '../modules/plans/plans.service', INFRA],
    ['apps/api/src/channels/cloud/inbox.ts', '../../modules/messages/messages.service', INFRA],
    ['apps/api/src/jobs/queue.ts', '../deps', INFRA],
    ['apps/api/src/events/domain-events.ts', '../modules/tickets', INFRA],
    ['apps/api/src/realtime/realtime.ts', '../app', APP],
    // Web features stand alone, whatever the path looks like.
    ['apps/web/src/features/kanban/kanban-page.tsx', '../tickets/tickets.api', FEATURES],
    ['apps/web/src/features/kanban/kanban.api.ts', '../../features/tickets/tickets.api', FEATURES],
    ['apps/web/src/features/settings/plans/plans-tab.tsx', '../../tickets/tickets.api', FEATURES],
    [
      'apps/web/src/features/settings/plans/plans.api.ts',
      '../../../features/users/users.api',
      FEATURES,
    ],
    ['apps/web/src/components/confirm-dialog.tsx', '../features/tickets/tickets.api', SHARED_WEB],
    ['apps/web/src/lib/forms.ts', '../features/users/user-form.schema', SHARED_WEB],
  ])('%s may not import %s', async (file, from, message) => {
    expect(await lintImport(file, from)).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    ['apps/api/src/modules/tags/tags.service.ts', '../tickets'],
    ['apps/api/src/modules/tags/tags.service.ts', './tags.routes'],
    ['apps/api/src/modules/tags/tags.service.ts', '../../platform/tenancy'],
    ['apps/api/src/modules/messages/message-views.ts', '../tickets'],
    ['apps/api/src/modules/tickets/inbound/ingest.ts', '../../settings'],
    ['apps/api/src/modules/tickets/bots/queue-bot.ts', '../core/ticket-transition'],
    // Tests may set up what they need from any module.
    ['apps/api/src/modules/tags/kanban.test.ts', '../tickets/core/ticket-views'],
    ['apps/api/src/channels/cloud/inbox.ts', '../../jobs/queue'],
    ['apps/api/src/db/bootstrap.ts', '../platform/passwords'],
    ['apps/web/src/features/kanban/kanban-page.tsx', './kanban.api'],
    ['apps/web/src/features/kanban/kanban-page.tsx', '../../components/confirm-dialog'],
    ['apps/web/src/features/settings/plans/plans-tab.tsx', '../shared/admin-errors'],
    ['apps/web/src/features/settings/plans/plans-tab.tsx', '../../../lib/forms'],
    ['apps/web/src/app/app-routes.tsx', '../features/tickets/tickets-page'],
  ])('%s may import %s', async (file, from) => {
    expect(await lintImport(file, from)).toEqual([]);
  });
});

// Lint sees one import at a time; the imports as a whole must also form no cycle, file by file (type
// imports too: a type cycle still ties the files' changes together) and module by module.
describe('the web calls routes through their contracts', () => {
  it.each([
    ['apps/web/src/features/kanban/kanban.api.ts', '../../api/http-client'],
    ['apps/web/src/features/settings/plans/plans.api.ts', '../../../api/http-client'],
    ['apps/web/src/components/paged-table.tsx', '../api/http-client'],
    ['apps/web/src/app/layout/use-shell-data.ts', '../../api/http-client'],
  ])('%s may not import the raw request from %s', async (file, from) => {
    expect(await lintImport(file, from, 'request')).toEqual([expect.stringContaining(RAW_REQUEST)]);
  });

  it('lets a screen call a contract, and the client itself keep its raw request', async () => {
    expect(
      await lintImport(
        'apps/web/src/features/kanban/kanban.api.ts',
        '../../api/http-client',
        'call',
      ),
    ).toEqual([]);
    expect(
      await lintImport('apps/web/src/api/queries/tags.ts', '../http-client', 'request'),
    ).toEqual([]);
  });
});

describe('import cycles', () => {
  const src = path.join(root, 'apps/api/src');

  it('no file of the API imports itself around a loop', () => {
    expect(importCycles(importGraph(src))).toEqual([]);
  });

  it('no module depends on itself through others, and messages depend on tickets', () => {
    const modules = folderGraph(importGraph(src), 'modules');
    expect(modules.get('messages')).toContain('tickets');
    expect(modules.get('tickets')).not.toContain('messages');
    expect(importCycles(modules)).toEqual([]);
  });

  it('finds a loop through a type-only import, a re-export and a ../../modules path', () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
    const write = (file: string, source: string) => {
      mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      writeFileSync(path.join(tree, file), source);
    };
    try {
      write('deps.ts', "import type { Outbox } from './modules/messages/outbox';\n");
      write('modules/messages/outbox.ts', "import type { AppDeps } from '../../deps';\n");
      write('modules/tickets/engine.ts', "import { b } from '../../modules/tickets/service';\n");
      write('modules/tickets/service.ts', "export { a } from './engine';\n");
      write('modules/tags/tags.ts', "import { a } from '../tickets/engine';\n");
      write('modules/tags/tags.test.ts', "import { t } from './tags';\nexport { t };\n");
      write('modules/tickets/uses-tags.test.ts', "import { t } from '../tags/tags';\n");
      const graph = importGraph(tree);
      expect(importCycles(graph)).toEqual([
        ['deps.ts', 'modules/messages/outbox.ts'],
        ['modules/tickets/engine.ts', 'modules/tickets/service.ts'],
      ]);
      // Tests are left out: tickets' test of tags makes no loop.
      expect(importCycles(folderGraph(graph, 'modules'))).toEqual([]);
      write('modules/tickets/uses-tags.ts', "import { t } from '../tags/tags';\n");
      expect(importCycles(folderGraph(importGraph(tree), 'modules'))).toEqual([
        ['tags', 'tickets'],
      ]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });
});

// Only the job queue writes `jobs` (eslint.config.js `jobsTable`): elsewhere work is queued through
// jobs/queue.ts, which checks each payload against its queue's schema.
describe('the jobs table', () => {
  const ONLY_JOBS = 'Only jobs/ writes the jobs table';
  const lintSource = async (file: string, source: string) => {
    const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
    return result.messages
      .filter((message) => message.ruleId === 'no-restricted-syntax')
      .map((message) => message.message);
  };

  it.each([
    ['a schema import', "import { jobs } from '../../db/schema';\nexport { jobs };\n"],
    [
      'the schema file',
      "import { jobs as table } from '../../db/schema/jobs';\nexport { table };\n",
    ],
    [
      'an INSERT in SQL',
      "import { sql } from 'drizzle-orm';\nexport const q = sql`insert into jobs (queue) values ('x')`;\n",
    ],
    [
      'a SELECT in SQL',
      "import { sql } from 'drizzle-orm';\nexport const q = sql`select 1 from tickets t\n  join jobs j on true`;\n",
    ],
    [
      'raw SQL',
      "import { sql } from 'drizzle-orm';\nexport const q = sql.raw('delete from \"jobs\"');\n",
    ],
  ])('is not reached by a module through %s', async (_what, source) => {
    expect(await lintSource('apps/api/src/modules/tags/tags.service.ts', source)).toEqual([
      expect.stringContaining(ONLY_JOBS),
    ]);
  });

  it.each([
    ['apps/api/src/jobs/queue.ts', "import { jobs } from '../db/schema';\nexport { jobs };\n"],
    [
      'apps/api/src/modules/tags/tags.test.ts',
      "import { jobs } from '../../db/schema';\nexport { jobs };\n",
    ],
    [
      'apps/api/src/modules/tags/tags.service.ts',
      "import { sql } from 'drizzle-orm';\nexport const q = sql`select 1 from jobs_archive, tickets`;\n",
    ],
  ])('may be named in %s', async (file, source) => {
    expect(await lintSource(file, source)).toEqual([]);
  });
});

// Background work is registered in background.ts only (eslint.config.js `registersBackground`).
describe('background registrations', () => {
  const ONLY_BACKGROUND = 'registered in apps/api/src/background.ts only';
  const lintCall = async (file: string, call: string) => {
    const source = `import type { AppDeps } from '../../deps';\nexport const f = (deps: AppDeps) => {\n  ${call};\n};\n`;
    const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
    return result.messages
      .filter((message) => message.ruleId === 'no-restricted-syntax')
      .map((message) => message.message);
  };

  it.each([
    'deps.jobs.define(queue, { handle: async () => {} })',
    "deps.jobs.every({ name: 'x', everyMs: 1000, run: async () => {} })",
    "deps.events.record('message.created', async () => {})",
    "deps.events.recordAll('message.created', async () => {})",
    "deps.events.on('ticket.changed', () => {})",
    "deps.events.onDurable('x', 'ticket.changed', schema, async () => {})",
    'deps.channels.onEvent(() => {})',
  ])('fails in a routes plugin: %s', async (call) => {
    expect(await lintCall('apps/api/src/modules/tags/tags.routes.ts', call)).toEqual([
      expect.stringContaining(ONLY_BACKGROUND),
    ]);
  });

  it.each([
    [
      'apps/api/src/background.ts',
      "deps.jobs.every({ name: 'x', everyMs: 1000, run: async () => {} })",
    ],
    ['apps/api/src/modules/tags/tags.routes.ts', "deps.jobs.kick('x')"],
    ['apps/api/src/modules/tags/tags.routes.ts', "void deps.jobs.run('x')"],
    ['apps/api/src/modules/tags/tags.test.ts', "deps.events.on('ticket.changed', () => {})"],
  ])('passes in %s: %s', async (file, call) => {
    expect(await lintCall(file, call)).toEqual([]);
  });
});
