import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  sharedTestApp,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../test/harness';
import { eventually } from '../../test/eventually';
import { inbound, pairedSimulator, ticketOf } from '../../test/inbox';

const TOKEN = 'metrics-token-for-tests-0123';

// One series' value in the Prometheus text, by its name and labels (the node label aside).
const valueOf = (text: string, name: string, labels: Record<string, string> = {}) => {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((pair) => line.includes(pair))) return Number(line.split(' ').at(-1));
  }
  return undefined;
};

describe('GET /metrics', () => {
  it('is not there unless METRICS_TOKEN is set', async () => {
    const t = await sharedTestApp();
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestContext;
    let admin: Session;
    beforeAll(async () => {
      t = await createTestApp({ METRICS_TOKEN: TOKEN });
      admin = await login(t.app, (await makeCompany(t.db)).admin.email);
    });
    afterAll(async () => {
      await t.close();
    });

    const scrape = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.body;
    };

    it('answers only the bearer token', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token', TOKEN, `Basic ${TOKEN}`]) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode, String(authorization)).toBe(401);
        expect(res.body).not.toContain('atendi_');
      }
    });

    it('shows requests by route pattern, sessions, sockets, jobs and messages', async () => {
      const connection = await pairedSimulator(t.app, admin, {});
      expect(
        (await inbound(t.app, admin, connection.id, { from: '5491155550101', body: 'Hola' }))
          .statusCode,
      ).toBe(200);
      await eventually(() => ticketOf(t.db, admin.companyId, '5491155550101'), Boolean, 'ticket');
      await t.app.inject({
        method: 'GET',
        url: '/tickets/999999',
        headers: { authorization: `Bearer ${admin.token}` },
      });

      const text = await eventually(
        scrape,
        (body) => (valueOf(body, 'atendi_messages_total', { direction: 'inbound' }) ?? 0) >= 1,
        'the inbound message counted',
      );
      // The pattern, not the id: one series per route.
      expect(
        valueOf(text, 'atendi_http_request_duration_seconds_count', {
          route: '/tickets/:id',
          status: '404',
        }),
      ).toBe(1);
      expect(text).not.toMatch(/route="[^"]*999999/);
      expect(
        valueOf(text, 'atendi_whatsapp_sessions', { provider: 'simulator', status: 'CONNECTED' }),
      ).toBe(1);
      expect(valueOf(text, 'atendi_sockets_connected')).toBe(0);
      // The recurring jobs wait in their queues.
      expect(text).toMatch(/^atendi_jobs_pending\{queue="[^"]+"/m);
      expect(text).toMatch(/^atendi_jobs_oldest_due_seconds\{queue="[^"]+"/m);
      for (const name of [
        'atendi_campaign_sends_total',
        'atendi_webhook_deliveries_total',
        'atendi_job_failures_total',
        'atendi_process_resident_memory_bytes',
      ])
        expect(text).toContain(`# TYPE ${name} `);

      // The example Grafana dashboard asks only for series that exist.
      const dashboard = readFileSync(
        path.resolve(
          path.dirname(fileURLToPath(import.meta.url)),
          '../../../../ops/grafana-dashboard.json',
        ),
        'utf8',
      );
      const asked = new Set(
        [...dashboard.matchAll(/\batendi_\w+/g)].map((m) =>
          m[0].replace(/_(bucket|count|sum)$/, ''),
        ),
      );
      expect(asked.size).toBeGreaterThan(5);
      for (const name of asked) expect(text, name).toContain(`# TYPE ${name} `);
    });
  });
});
