import { hostname } from 'node:os';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// What GET /metrics shows Prometheus (README "Metrics"; off unless METRICS_TOKEN is set). Counters
// and histograms are this node's; the job queue's gauges are read from the shared database at each
// scrape, so every node reports the same figures for them (sum the first, take max of the second).
// Each app has its own registry: several apps in one process (tests) never mix their series.

type MetricsSources = {
  // The queues' live jobs (jobs/queue.ts liveJobCounts): waiting and running now, and how long the
  // oldest due one has waited, in seconds.
  jobs: () => Promise<{ queue: string; pending: number; running: number; late: number | null }[]>;
  // This node's WhatsApp sessions (channels/manager.ts).
  sessions: () => { provider: string; status: string }[];
  // Sockets connected to this node.
  sockets: () => number;
};

export type Metrics = ReturnType<typeof createMetrics>;

// Buckets for API answers: most in milliseconds, a long tail for uploads and reports.
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const createMetrics = () => {
  const registry = new Registry();
  const node = hostname();
  registry.setDefaultLabels({ node });
  collectDefaultMetrics({ register: registry, prefix: 'atendi_' });
  let sources: MetricsSources | undefined;

  const http = new Histogram({
    name: 'atendi_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route (its pattern) and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const messages = new Counter({
    name: 'atendi_messages_total',
    help: 'Messages stored by this node: inbound from contacts, outbound written here',
    labelNames: ['direction', 'author'] as const,
    registers: [registry],
  });
  const campaignSends = new Counter({
    name: 'atendi_campaign_sends_total',
    help: 'Campaign messages this node handed to WhatsApp (sent) or gave up on (failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'atendi_webhook_deliveries_total',
    help: "Events POSTed to a company's webhook or n8n flow: ok, failed (retried) or refused",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  // Read at each scrape: what is live right now.
  const jobsPending = new Gauge({
    name: 'atendi_jobs_pending',
    help: 'Background jobs waiting to run, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const jobsRunning = new Gauge({
    name: 'atendi_jobs_running',
    help: 'Background jobs running now, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const oldestDue = new Gauge({
    name: 'atendi_jobs_oldest_due_seconds',
    help: 'How long the oldest due job of each queue has been waiting (0: none late)',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'atendi_job_failures_total',
    help: 'Background job attempts that failed on this node, by queue; final: no attempt is left',
    labelNames: ['queue', 'final'] as const,
    registers: [registry],
  });
  const sessions = new Gauge({
    name: 'atendi_whatsapp_sessions',
    help: 'WhatsApp sessions this node runs, by provider and status',
    labelNames: ['provider', 'status'] as const,
    registers: [registry],
  });
  const sockets = new Gauge({
    name: 'atendi_sockets_connected',
    help: 'Browser sockets connected to this node',
    registers: [registry],
  });

  const collect = async () => {
    if (!sources) return;
    const rows = await sources.jobs();
    for (const gauge of [jobsPending, jobsRunning, oldestDue]) gauge.reset();
    for (const row of rows) {
      jobsPending.set({ queue: row.queue }, row.pending);
      jobsRunning.set({ queue: row.queue }, row.running);
      oldestDue.set({ queue: row.queue }, Math.max(0, row.late ?? 0));
    }
    sessions.reset();
    for (const session of sources.sessions()) sessions.inc(session);
    sockets.set(sources.sockets());
  };

  return {
    http,
    messages,
    campaignSends,
    webhookDeliveries,
    jobFailures,
    // What the gauges are read from, once the app has it.
    readFrom(given: MetricsSources) {
      sources = given;
    },
    contentType: registry.contentType,
    async render() {
      await collect();
      return registry.metrics();
    },
  };
};
