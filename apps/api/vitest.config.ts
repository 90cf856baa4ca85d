import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// The PostgreSQL pass (TEST_PASS=postgres with TEST_DATABASE_URL: CI's second pass) runs the
// PostgreSQL-only files (*.pg.test.ts) and these, whose subject is where PostgreSQL can behave
// otherwise than the embedded database (one in-process connection, its own version, locale and type
// parsers): work raced over several connections (locks, SKIP LOCKED claims, conditional updates,
// unique conflicts, the pool), the job queue, time and counters computed in SQL, text search over the
// trigram indexes, and what the schema and the driver do (constraints, triggers, JSON read back,
// prepared statements, driver errors). Every other file runs once, on PGlite (README "Tests").
const onBothDatabases = [
  'src/db/prepared.test.ts', // statements per pooled connection
  'src/db/schema.test.ts', // constraints, triggers, ten updates at once
  'src/jobs/queue.test.ts', // claims, leases, retries, recurring runs on two nodes
  'src/events/domain-events.test.ts', // durable listeners' jobs written in the caller's transaction
  'src/channels/handover.test.ts', // session leases (advisory locks on PostgreSQL)
  'src/channels/cloud/webhook.test.ts', // the webhook queue
  'src/channels/baileys/auth-state.test.ts', // binary keys in JSON, a batch in one transaction
  'src/channels/baileys/message-store.test.ts', // messages in JSON, pruned by date
  'src/modules/auth/auth.test.ts', // refresh rotation and reset-code guesses raced
  'src/modules/auth/two-factor.test.ts', // codes raced on one sign-in step, each code accepted once
  'src/modules/auth/sessions.test.ts', // one session kept when sign-ins of one account race
  'src/modules/audit/audit.test.ts', // the append-only trigger and its prune
  'src/modules/auth/sso.test.ts', // a round trip taken once, two first sign-ins making one account
  'src/modules/api-tokens/api-tokens.test.ts', // revoked and expired at once on two nodes
  'src/modules/webhook-endpoints/webhook-endpoints.test.ts', // deliveries in order per ticket, retried
  'src/modules/tickets/transcript/conversation-exports.test.ts', // a range of days in a zone, in SQL
  'src/modules/knowledge/knowledge.test.ts', // full-text and vector search in SQL, the ingest re-run
  'src/modules/prompts/agent-knowledge.test.ts', // retrieval by an agent's documents, its citations
  'src/modules/campaigns/campaigns.test.ts', // the dispatcher's claims and status changes
  'src/modules/contact-lists/contact-lists.test.ts', // one number added at once, the checks queue
  'src/modules/contacts/contacts.test.ts', // search over the trigram indexes, imports upserted
  'src/modules/dashboard/dashboard.test.ts', // counters and time zones in SQL
  'src/modules/messages/external-api.test.ts', // Idempotency-Key locks
  'src/modules/messages/messages.test.ts', // the outbox, Idempotency-Key locks
  'src/modules/messages/reactions-forward.test.ts', // parallel reactions and forwards
  'src/modules/plans/plan-limits.test.ts', // two creates racing for the last place
  'src/modules/presence/presence.test.ts', // a user's settles under their row lock, the sweep
  'src/modules/prompts/agent.test.ts', // five messages at once, one turn
  'src/modules/prompts/ai-usage.test.ts', // agents created and answers counted at once
  'src/modules/insight/insight.test.ts', // two analyses of one conversation at once tag it once
  'src/modules/prompts/voice-notes.test.ts', // a job delivered twice at once, transcripts searched
  'src/modules/copilot/copilot.test.ts', // transfers raced: one live summary job per ticket
  'src/modules/push/push.test.ts', // one endpoint registered at once by two users is one row
  'src/modules/queue-integrations/integration-runtime.test.ts', // a ticket's turns, one at a time
  'src/modules/routing/routing.test.ts', // passes under a company lock, conversations arriving together
  'src/modules/schedules/schedules.test.ts', // due schedules in a time zone
  'src/modules/sla/sla.test.ts', // the watch and an answer deciding a deadline at once
  'src/modules/subscriptions/subscriptions.test.ts', // billing jobs on two nodes, due dates
  'src/modules/templates/templates.test.ts', // a campaign's confirmation and the answer recorded
  'src/modules/tickets/bots/bot-rules.test.ts', // timers: business hours, due times
  'src/modules/tickets/inbound/ingest.test.ts', // one contact and ticket under a burst
  'src/modules/tickets/inbound/ingest-batch.test.ts', // parallel batches and redeliveries
  'src/modules/tickets/core/tickets.test.ts', // transitions raced, search
  'src/modules/uploads/storage.test.ts', // the storage quota under parallel uploads
  'src/modules/whatsapps/whatsapps.test.ts', // secrets sealed once by nodes starting together
  'test/route-walk.test.ts', // every route's SQL with foreign ids and malformed input
];
const here = path.dirname(fileURLToPath(import.meta.url));
const missing = onBothDatabases.filter((file) => !existsSync(path.join(here, file)));
if (missing.length) throw new Error(`apps/api/vitest.config.ts lists missing files: ${missing}`);
const postgresPass = process.env.TEST_PASS === 'postgres';
if (postgresPass && !process.env.TEST_DATABASE_URL)
  throw new Error('TEST_PASS=postgres needs TEST_DATABASE_URL');

export default defineProject({
  test: {
    name: 'api',
    include: postgresPass
      ? ['src/**/*.pg.test.ts', 'test/**/*.pg.test.ts', ...onBothDatabases]
      : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Behaviour only PostgreSQL has (a server that drops connections) is tested only there.
    exclude: [
      ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts']),
      // Several API nodes sharing Redis are tested where a Redis server is given.
      ...(process.env.TEST_REDIS_URL ? [] : ['**/*.redis.test.ts']),
    ],
    globalSetup: ['test/global-setup.ts'],
    // A worker's files share its modules (imported once, not once per file) and, where they need
    // nothing of their own, one app (test/harness.ts sharedTestApp); test/isolation.ts fails a file
    // that leaves fake timers or a changed process.env behind.
    isolate: false,
    setupFiles: ['test/isolation.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite runs on the main thread: a few files at a time keeps each one quick.
    maxWorkers: 2,
    // Its own worker pool, so it runs as its own group after the light projects.
    sequence: { groupOrder: 1 },
  },
});
