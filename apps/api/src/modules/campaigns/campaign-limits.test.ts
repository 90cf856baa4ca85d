import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, max } from 'drizzle-orm';
import {
  CAMPAIGN_SETTINGS_DEFAULTS,
  type CampaignView,
  type TemplateList,
  type WhatsappView,
} from '@atendi/shared';
import { campaignShipping, contactListItems, jobs } from '../../db/schema';
import { GRAPH_TOKEN, startFakeGraph, type FakeGraph } from '../../../test/fake-graph';
import { eventually } from '../../../test/eventually';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { DISPATCH_QUEUE, numberLimit, paced } from './campaign-dispatcher';

// Issue 39: campaigns within the number's limits. On the Cloud API a campaign never starts more new
// conversations in 24 hours than the number's messaging limit tier allows: it waits, says why, and
// goes on when the window allows, sending nobody twice. On Baileys a daily cap per number, a warm-up
// for new numbers and randomised pacing.

const DAY_MS = 24 * 3600_000;
let t: TestContext;
let graph: FakeGraph;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;

beforeAll(async () => {
  graph = await startFakeGraph();
  // Meta's rate is not what is tested here: the stand-in takes the messages as fast as they come.
  t = await createTestApp({ CAMPAIGNS_INTERVAL: '0', CLOUD_API_MESSAGES_PER_SECOND: '1000' });
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object) =>
  inject(t.app, admin, method, url, body);

// The distinct numbers the stand-in received campaign templates for, and how many messages in all.
const templatesSent = () => {
  const to = graph.requests
    .filter((r) => r.path.endsWith('/messages') && r.json?.type === 'template')
    .map((r) => String(r.json?.to));
  return { messages: to.length, people: new Set(to).size };
};

describe('a Cloud API campaign within the messaging limit tier', () => {
  it(
    'sends 1,000 recipients at the 250 tier 250 a day, waiting in between, nobody twice',
    { timeout: 120_000 },
    async () => {
      graph.addPhoneNumber('1700000000001', '+57 300 000 0001', 'Tienda', {
        quality_rating: 'GREEN',
        messaging_limit_tier: 'TIER_250',
      });
      graph.addTemplate('9700000000001', {
        id: 'T-LIMIT',
        name: 'novedades',
        language: 'es',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hola, tenemos novedades' }],
      });
      const created = await call('POST', '/whatsapp', {
        name: 'Cloud tier',
        provider: 'cloud',
        cloudPhoneNumberId: '1700000000001',
        cloudAccessToken: GRAPH_TOKEN,
        cloudAppSecret: 'limits-secret',
        cloudVerifyToken: 'limits-verify',
        cloudApiBaseUrl: graph.url,
        cloudBusinessAccountId: '9700000000001',
      });
      expect(created.statusCode, created.body).toBe(201);
      const cloud = await eventually(
        async () => (await call('GET', `/whatsapp/${created.json().id}`)).json() as WhatsappView,
        (c) => c.status === 'CONNECTED' && c.cloudMessagingLimit === 'TIER_250',
        'connected at its tier',
      );
      const templates = (
        await call('POST', `/whatsapp/${cloud.id}/templates/sync`)
      ).json() as TemplateList;
      await call('POST', '/campaign-settings', {
        settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 },
      });
      const list = (await call('POST', '/contact-lists', { name: 'Mil clientes' })).json() as {
        id: number;
      };
      await t.db.insert(contactListItems).values(
        Array.from({ length: 1000 }, (_, i) => ({
          companyId: company.company.id,
          contactListId: list.id,
          name: `Cliente ${i}`,
          number: `573${String(100000000 + i)}`,
          isWhatsappValid: null,
        })),
      );
      const started = await call('POST', '/campaigns', {
        name: 'Mil a la vez',
        whatsappId: cloud.id,
        contactListId: list.id,
        templateId: templates.templates[0].id,
        scheduledAt: new Date(Date.now() - 1000).toISOString(),
      });
      expect(started.statusCode, started.body).toBe(201);
      const id = (started.json() as CampaignView).id;
      const read = async () => (await call('GET', `/campaigns/${id}`)).json() as CampaignView;

      const firstDay = await eventually(read, (c) => c.held !== null, 'held at the tier', {
        timeoutMs: 60_000,
      });
      expect(firstDay).toMatchObject({
        status: 'EM_ANDAMENTO',
        held: { reason: 'tier' },
        report: { sent: 250, pending: 750 },
      });
      expect(templatesSent()).toEqual({ messages: 250, people: 250 });
      // It waits for the first of those conversations to leave the 24 hours.
      const until = new Date(firstDay.held!.until).getTime();
      expect(until).toBeGreaterThan(Date.now() + DAY_MS - 120_000);

      // The window rolls: each of those conversations frees its place 24 hours after it began. A day
      // after the last of them (the app's clock; the job queue keeps the database's, so its run is
      // made due), the next 250 go.
      const [{ last }] = await t.db
        .select({ last: max(campaignShipping.deliveredAt) })
        .from(campaignShipping)
        .where(eq(campaignShipping.campaignId, id));
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(last!.getTime() + DAY_MS + 1000);
      admin = await login(t.app, company.admin.email);
      const due = () =>
        t.db
          .update(jobs)
          .set({ runAt: new Date(Date.now() - DAY_MS * 10) })
          .where(and(eq(jobs.queue, DISPATCH_QUEUE), eq(jobs.ref, `campaign:${id}`)));
      await due();
      t.app.deps.jobs.kick(DISPATCH_QUEUE);
      const secondDay = await eventually(
        read,
        (c) => c.held !== null && c.report.sent === 500,
        'the next 250, held again',
        { timeoutMs: 60_000 },
      );
      expect(secondDay.report).toMatchObject({ sent: 500, pending: 500 });
      expect(templatesSent()).toEqual({ messages: 500, people: 500 });

      // Kicked again before the window allows: nothing more goes.
      await due();
      t.app.deps.jobs.kick(DISPATCH_QUEUE);
      await eventually(
        async () =>
          (
            await t.db
              .select({ runAt: jobs.runAt })
              .from(jobs)
              .where(and(eq(jobs.queue, DISPATCH_QUEUE), eq(jobs.ref, `campaign:${id}`)))
          )[0]?.runAt.getTime() ?? 0,
        (runAt) => runAt > Date.now() - DAY_MS,
        'put back to wait',
      );
      expect(templatesSent()).toEqual({ messages: 500, people: 500 });
      expect((await read()).report.sent).toBe(500);
    },
  );
});

describe('Baileys numbers', () => {
  const now = new Date('2026-11-29T12:00:00Z');
  const linked = (daysAgo: number) => ({
    provider: 'beta',
    cloudMessagingLimit: null,
    createdAt: new Date(now.getTime() - daysAgo * DAY_MS),
  });

  it('warm a new number up, doubling each day, up to the daily cap', () => {
    const settings = { ...CAMPAIGN_SETTINGS_DEFAULTS, dailyCap: 200 };
    expect([0, 0.5, 1, 2, 3, 4, 30].map((d) => numberLimit(linked(d), settings, now))).toEqual([
      { allowed: 20, reason: 'warm_up' },
      { allowed: 20, reason: 'warm_up' },
      { allowed: 40, reason: 'warm_up' },
      { allowed: 80, reason: 'warm_up' },
      { allowed: 160, reason: 'warm_up' },
      { allowed: 200, reason: 'daily_cap' },
      { allowed: 200, reason: 'daily_cap' },
    ]);
    expect(numberLimit(linked(0), { dailyCap: 200, warmUp: false }, now)).toEqual({
      allowed: 200,
      reason: 'daily_cap',
    });
    expect(numberLimit(linked(30), { dailyCap: 0, warmUp: true }, now).allowed).toBe(
      Number.POSITIVE_INFINITY,
    );
    // The Cloud API follows Meta's tier (the lowest until Meta says); the simulator has no limit.
    expect(numberLimit({ ...linked(0), provider: 'cloud' }, settings, now)).toEqual({
      allowed: 250,
      reason: 'tier',
    });
    expect(
      numberLimit(
        { ...linked(0), provider: 'cloud', cloudMessagingLimit: 'TIER_10K' },
        settings,
        now,
      ).allowed,
    ).toBe(10_000);
    expect(numberLimit({ ...linked(0), provider: 'simulator' }, settings, now).allowed).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('vary each wait between half and one and a half times, when asked', () => {
    expect(paced(20_000, true, () => 0)).toBe(10_000);
    expect(paced(20_000, true, () => 0.999)).toBe(29_980);
    expect(paced(20_000, false, () => 0)).toBe(20_000);
    expect(paced(0, true, () => 0.7)).toBe(0);
  });

  it('keep the cap, pacing and warm-up as campaign settings with safe defaults', async () => {
    const before = (await call('GET', '/campaign-settings')).json() as {
      key: string;
      value: string;
    }[];
    expect(before.filter((s) => ['dailyCap', 'randomPacing', 'warmUp'].includes(s.key))).toEqual([
      { key: 'dailyCap', value: '200' },
      { key: 'randomPacing', value: 'true' },
      { key: 'warmUp', value: 'true' },
    ]);
    const saved = await call('POST', '/campaign-settings', {
      settings: { dailyCap: 500, warmUp: false },
    });
    expect(saved.statusCode).toBe(200);
    expect(
      (saved.json() as { key: string; value: string }[]).find((s) => s.key === 'dailyCap')?.value,
    ).toBe('500');
    for (const dailyCap of [-1, 1.5, 20_000, 'mucho'])
      expect(
        (await call('POST', '/campaign-settings', { settings: { dailyCap } })).statusCode,
      ).toBe(400);
  });
});
