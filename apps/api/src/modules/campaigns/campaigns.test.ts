import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { CampaignView, WhatsappView } from '@atendi/shared';
import {
  campaigns,
  campaignOptOuts,
  campaignShipping,
  jobs,
  messages,
  plans,
  queues,
  tags,
  tickets,
  ticketTags,
} from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Method,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { campaignFinished, contactListWith } from '../../../test/campaigns';
import {
  inbound,
  messageTexts,
  outbound,
  pairedSimulator,
  receivedBy,
  ticketOf,
  ticketSettled,
  untilReceived,
} from '../../../test/inbox';
import { closeSockets, listenAs } from '../../../test/sockets';
import { multipart } from '../../../test/multipart';
import type { EventOf } from '../../events/domain-events';
import { CAMPAIGNS_JOB, DISPATCH_QUEUE } from './campaign-dispatcher';

// Campaigns (SPEC §3, §4, §5, §7): the rules of the rows, and the dispatcher that sends them
// to every recipient once, paced, across cancels, restarts and a dispatcher that dies mid-send.

let t: TestContext;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;
let sim: WhatsappView;
let phone = 0;
// Numbers of this run: the simulator refuses ones starting 800 (no WhatsApp account).
const nextNumber = () =>
  `57300${String(process.pid % 1000).padStart(3, '0')}${String((phone += 1)).padStart(4, '0')}`;

beforeAll(async () => {
  t = await createTestApp({ CAMPAIGNS_INTERVAL: '0', TIME_ZONE: 'America/Bogota' });
});
afterAll(async () => {
  closeSockets();
  await t.close();
});
beforeEach(async () => {
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
  sim = await pairedSimulator(t.app, admin, {});
});
afterEach(() => {
  vi.useRealTimers();
});

const call = (method: Method, url: string, body?: object, session = admin) =>
  inject(t.app, session, method, url, body);
const read = async (id: number) => (await call('GET', `/campaigns/${id}`)).json() as CampaignView;
const settings = (values: Record<string, unknown>) =>
  call('POST', '/campaign-settings', { settings: values });
const noPauses = async () =>
  expect(
    (await settings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 })).statusCode,
  ).toBe(200);

const listWith = (people: Parameters<typeof contactListWith>[3]) =>
  contactListWith(t.app, admin, t.db, people);

const create = async (fields: Record<string, unknown>) => {
  const res = await call('POST', '/campaigns', {
    name: 'Promo noviembre',
    message1: 'Hola {{firstName}}',
    whatsappId: sim.id,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CampaignView;
};
const startNow = (fields: Record<string, unknown>) =>
  create({ scheduledAt: new Date(Date.now() - 1000).toISOString(), ...fields });

const finished = (id: number) => campaignFinished(t.app, admin, id);
const sentTo = async () => {
  const counts = new Map<string, number>();
  for (const m of await outbound(t.app, admin, sim.id))
    counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
  return counts;
};
const shippingOf = (campaignId: number) =>
  t.db
    .select()
    .from(campaignShipping)
    .where(eq(campaignShipping.campaignId, campaignId))
    .orderBy(campaignShipping.id);
// A ticket's messages as its chat shows them (in time order): who wrote each, and its text.
const conversation = async (ticketId: number) =>
  (
    await t.db
      .select({ body: messages.body, fromMe: messages.fromMe })
      .from(messages)
      .where(eq(messages.ticketId, ticketId))
      .orderBy(messages.createdAt, messages.id)
  ).map((m) => [m.fromMe ? 'me' : 'contact', m.body]);
const dispatchJob = async (campaignId: number) =>
  (
    await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.queue, DISPATCH_QUEUE), eq(jobs.ref, `campaign:${campaignId}`)))
      .orderBy(jobs.id)
  ).at(-1);

describe('campaign rows', () => {
  it('creates drafts and schedules, edits them while allowed, and refuses what the state forbids', async () => {
    const list = await listWith([]);
    const draft = await create({ contactListId: list, tagListId: 'Ninguna', whatsappId: null });
    expect(draft).toMatchObject({
      status: 'INATIVA',
      tagListId: null,
      whatsapp: null,
      contactList: { id: list },
      scheduledAt: null,
      report: { recipients: 0, sent: 0 },
    });

    // To be scheduled a campaign needs a connection and an audience; any campaign needs a message.
    const bad = await call('POST', '/campaigns', {
      name: 'Sin nada',
      scheduledAt: new Date(Date.now() + 7200_000).toISOString(),
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual([
      'contactListId',
      'message1',
      'whatsappId',
    ]);
    expect((await call('POST', '/campaigns', { name: 'x', message1: 'Hola' })).statusCode).toBe(
      400,
    );

    // Scheduled two hours ahead: PROGRAMADA and still editable; the merged campaign must stay valid.
    const inTwoHours = new Date(Date.now() + 2 * 3600_000).toISOString();
    const scheduled = await call('PUT', `/campaigns/${draft.id}`, {
      scheduledAt: inTwoHours,
      whatsappId: sim.id,
    });
    expect(scheduled.json()).toMatchObject({ status: 'PROGRAMADA', whatsapp: { id: sim.id } });
    const emptied = await call('PUT', `/campaigns/${draft.id}`, { message1: '' });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().fields).toHaveProperty('message1');
    expect(
      (await call('PUT', `/campaigns/${draft.id}`, { name: 'Promo Black Friday' })).json(),
    ).toMatchObject({
      name: 'Promo Black Friday',
    });

    // Another company's connection, list or tag is not found.
    const other = await makeCompany(t.db);
    const [foreignTag] = await t.db
      .insert(tags)
      .values({ companyId: other.company.id, name: 'Ajena' })
      .returning();
    const foreign = await call('PUT', `/campaigns/${draft.id}`, { tagListId: foreignTag!.id });
    expect(foreign.statusCode).toBe(404);

    // Within the hour before it starts, nothing changes any more (the form turns read-only).
    const soon = await call('PUT', `/campaigns/${draft.id}`, {
      scheduledAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    expect(soon.json()).toMatchObject({ status: 'PROGRAMADA' });
    const late = await call('PUT', `/campaigns/${draft.id}`, { message2: 'Otra' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    const attach = multipart({}, [
      { field: 'file', name: 'promo.png', type: 'image/png', data: Buffer.from('png') },
    ]);
    const lateMedia = await t.app.inject({
      method: 'POST',
      url: `/campaigns/${draft.id}/media-upload`,
      headers: { authorization: `Bearer ${admin.token}`, ...attach.headers },
      payload: attach.payload,
    });
    expect(lateMedia.statusCode).toBe(409);
    expect((await call('PUT', `/campaigns/${draft.id}`, { scheduledAt: null })).statusCode).toBe(
      409,
    );
    // Cancelled before it started: a cancelled campaign keeps its messages editable.
    expect((await call('POST', `/campaigns/${draft.id}/cancel`)).json().status).toBe('CANCELADA');

    // Search, pages, delete.
    for (let i = 0; i < 20; i += 1) await create({ name: `Campaña ${i}` });
    const page = (await call('GET', '/campaigns?pageNumber=1')).json();
    expect(page).toMatchObject({ count: 21, hasMore: true });
    expect(page.records[0].name).toBe('Campaña 19');
    expect((await call('GET', '/campaigns?searchParam=black')).json().records).toEqual([
      expect.objectContaining({ id: draft.id }),
    ]);
    expect((await call('DELETE', `/campaigns/${draft.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/campaigns/${draft.id}`)).json().error).toBe(
      'ERR_NO_CAMPAIGN_FOUND',
    );
  });

  it('attaches and removes a file while editable', async () => {
    const draft = await create({});
    const attach = multipart({}, [
      {
        field: 'file',
        name: 'catálogo.pdf',
        type: 'application/pdf',
        data: Buffer.from('%PDF-1.4'),
      },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/campaigns/${draft.id}/media-upload`,
      headers: { authorization: `Bearer ${admin.token}`, ...attach.headers },
      payload: attach.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toMatchObject({ mediaName: 'catálogo.pdf' });
    expect(uploaded.json().mediaUrl).toMatch(/sig=/);
    const removed = await call('DELETE', `/campaigns/${draft.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaName: null, mediaUrl: null });
  });

  it('keeps settings with their defaults, ignoring duplicate variables', async () => {
    const defaults = (await call('GET', '/campaign-settings')).json() as {
      key: string;
      value: string;
    }[];
    expect(Object.fromEntries(defaults.map((s) => [s.key, JSON.parse(s.value)]))).toEqual({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [],
      optOutKeywords: ['STOP', 'SALIR', 'BAJA', 'PARAR'],
      optOutMessage: 'Listo, ya no te enviaremos mensajes de nuestras campañas.',
      dailyCap: 200,
      randomPacing: true,
      warmUp: true,
    });
    const saved = await settings({
      messageInterval: 5,
      variables: [
        { key: 'promo', value: '20%' },
        { key: 'promo', value: '50%' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const values = Object.fromEntries(
      (saved.json() as { key: string; value: string }[]).map((s) => [s.key, JSON.parse(s.value)]),
    );
    expect(values).toMatchObject({
      messageInterval: 5,
      greaterInterval: 60,
      variables: [{ key: 'promo', value: '20%' }],
    });
    // Only the SPEC's options.
    expect((await settings({ messageInterval: 7 })).statusCode).toBe(400);
  });

  it('is for admins of companies whose plan has campaigns; another company’s campaigns are 404', async () => {
    const mine = await create({});
    const agent = await login(t.app, (await makeUser(t.db, company.company.id, 'user')).email);
    expect((await call('GET', '/campaigns', undefined, agent)).statusCode).toBe(403);

    const other = await makeCompany(t.db);
    const stranger = await login(t.app, other.admin.email);
    for (const [method, url] of [
      ['GET', `/campaigns/${mine.id}`],
      ['PUT', `/campaigns/${mine.id}`],
      ['DELETE', `/campaigns/${mine.id}`],
      ['POST', `/campaigns/${mine.id}/cancel`],
      ['POST', `/campaigns/${mine.id}/restart`],
      ['GET', `/campaigns/${mine.id}/shipping`],
      ['GET', `/campaigns/${mine.id}/shipping.csv`],
      ['DELETE', `/campaigns/${mine.id}/media-upload`],
    ] as const) {
      const res = await call(method, url, method === 'PUT' ? { name: 'Mía' } : undefined, stranger);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('ERR_NO_CAMPAIGN_FOUND');
    }
    expect((await call('GET', '/campaigns', undefined, stranger)).json().count).toBe(0);

    await t.db.update(plans).set({ useCampaigns: false }).where(eq(plans.id, company.planId));
    const noPlan = await call('GET', '/campaign-settings');
    expect(noPlan.statusCode).toBe(403);
    expect(noPlan.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });
});

describe('dispatching', () => {
  it('sends one message per valid recipient of the list and the tag, with variants and variables, then finishes', async () => {
    await noPauses();
    await settings({ variables: [{ key: 'promo', value: '2x1' }] });
    const [ana, beto, invalid, unknown, refused] = [1, 2, 3, 4, 5].map(() => nextNumber());
    const doomed = `800${refused!.slice(4)}`;
    const list = await listWith([
      { name: 'Ana María', number: ana! },
      { name: 'Beto', number: beto! },
      // WhatsApp said no account: never planned.
      { name: 'Nadie', number: invalid!, valid: false },
      // Not looked up (e.g. a Cloud API default): planned, and sent.
      { name: 'Quizá', number: unknown!, valid: null },
      // Looked up as valid, but the send is refused: failed, with the reason.
      { name: 'Rechazo', number: doomed },
    ]);
    // A contact carrying the tag (and one already in the list: messaged once).
    const tagged = nextNumber();
    await inbound(t.app, admin, sim.id, { from: tagged, body: 'hola', name: 'Carla' });
    await inbound(t.app, admin, sim.id, { from: ana!, body: 'hola', name: 'Ana' });
    const [vip] = await t.db
      .insert(tags)
      .values({ companyId: company.company.id, name: 'VIP' })
      .returning();
    for (const number of [tagged, ana!]) {
      const ticket = await eventually(
        () => ticketOf(t.db, company.company.id, number),
        (found) => found !== undefined,
        'ticket',
      );
      await t.db
        .insert(ticketTags)
        .values({ ticketId: ticket!.id, tagId: vip!.id, companyId: company.company.id });
    }
    const heard = await listenAs<{ action: string; record?: CampaignView }>(t.app, admin);

    const campaign = await startNow({
      contactListId: list,
      tagListId: vip!.id,
      message1: 'Hola {{firstName}}, {{promo}} hoy',
      message2: '',
      message3: '¡{{name}}! {{promo}} en tienda',
    });
    const done = await finished(campaign.id);
    expect(done.completedAt).not.toBeNull();
    expect(done.report).toMatchObject({
      recipients: 5,
      sent: 4,
      failed: 1,
      pending: 0,
      optedOut: 0,
    });

    const counts = await sentTo();
    for (const number of [ana!, beto!, unknown!, tagged])
      expect(counts.get(number), number).toBe(1);
    expect(counts.has(invalid!)).toBe(false);
    const rows = await shippingOf(campaign.id);
    // Planned in list order, then the tag's contacts.
    expect(rows.map((r) => r.number)).toEqual([ana, beto, unknown, doomed, tagged]);
    for (const row of rows.filter((r) => r.status === 'delivered')) {
      expect([1, 3]).toContain(row.variant);
      expect(row.deliveredAt).not.toBeNull();
      expect(row.providerId).toMatch(/^SIMOUT/);
    }
    const toAna = rows.find((r) => r.number === ana)!;
    expect(toAna.message).toBe(
      toAna.variant === 1 ? 'Hola Ana, 2x1 hoy' : '¡Ana María! 2x1 en tienda',
    );
    expect(rows.find((r) => r.number === doomed)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('ERR_WAPP_INVALID_CONTACT'),
    });

    // The report's table, its filter and its CSV.
    const failedPage = (
      await call('GET', `/campaigns/${campaign.id}/shipping?status=failed`)
    ).json();
    expect(failedPage).toMatchObject({
      count: 1,
      records: [expect.objectContaining({ number: doomed })],
    });
    const csv = await call('GET', `/campaigns/${campaign.id}/shipping.csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.trim().split('\n')).toHaveLength(6);
    expect(csv.body).toContain(`${beto};Beto;`);

    // Screens heard it run and finish.
    await eventually(
      () => heard.filter((h) => h.event === `company-${company.company.id}-campaign`),
      (events) => events.some((e) => e.payload.record?.status === 'FINALIZADA'),
      'finished event',
    );
    // A finished campaign cannot be cancelled or restarted.
    const cancel = await call('POST', `/campaigns/${campaign.id}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error).toBe('ERR_CAMPAIGN_STATUS');
  });

  it('starts a scheduled campaign when its time comes, not before', async () => {
    await noPauses();
    const number = nextNumber();
    const list = await listWith([{ name: 'Dora', number }]);
    const campaign = await create({
      contactListId: list,
      scheduledAt: new Date(Date.now() + 3 * 3600_000).toISOString(),
    });
    await t.app.deps.jobs.run(CAMPAIGNS_JOB);
    expect((await read(campaign.id)).status).toBe('PROGRAMADA');
    // Three hours pass (the schedule is moved back rather than the clock forward: the embedded
    // database reads the process clock, and its jobs would be due in the moved time).
    await t.db
      .update(campaigns)
      .set({ scheduledAt: new Date(Date.now() - 1000) })
      .where(eq(campaigns.id, campaign.id));
    await t.app.deps.jobs.run(CAMPAIGNS_JOB);
    await finished(campaign.id);
    expect((await sentTo()).get(number)).toBe(1);
  });

  it('tells campaign.status as a campaign is scheduled, starts, finishes, is cancelled and restarted', async () => {
    await noPauses();
    const heard: EventOf<'campaign.status'>[] = [];
    t.app.deps.events.on('campaign.status', (event) => {
      if (event.companyId === company.company.id) heard.push(event);
    });
    const changes = (id: number) =>
      heard.filter((e) => e.campaignId === id).map((e) => `${e.before} -> ${e.after}`);

    const list = await listWith([{ name: 'Elsa', number: nextNumber() }]);
    const campaign = await create({ contactListId: list, scheduledAt: null });
    // A draft scheduled for now: started by the look for due campaigns, finished once sent.
    const due = new Date(Date.now() - 1000).toISOString();
    expect((await call('PUT', `/campaigns/${campaign.id}`, { scheduledAt: due })).statusCode).toBe(
      200,
    );
    await finished(campaign.id);
    await eventually(
      async () => changes(campaign.id),
      (seen) => seen.length === 3,
      'finished told',
    );
    expect(changes(campaign.id)).toEqual([
      'INATIVA -> PROGRAMADA',
      'PROGRAMADA -> EM_ANDAMENTO',
      'EM_ANDAMENTO -> FINALIZADA',
    ]);
    // Finished: a cancel is refused and changes nothing.
    expect((await call('POST', `/campaigns/${campaign.id}/cancel`)).statusCode).toBe(409);

    const later = await create({
      contactListId: await listWith([{ name: 'Fede', number: nextNumber() }]),
      scheduledAt: new Date(Date.now() + 3 * 3600_000).toISOString(),
    });
    expect((await call('POST', `/campaigns/${later.id}/cancel`)).statusCode).toBe(200);
    expect((await call('POST', `/campaigns/${later.id}/restart`)).statusCode).toBe(200);
    await finished(later.id);
    await eventually(
      async () => changes(later.id),
      (seen) => seen.length === 3,
      'restarted and finished told',
    );
    expect(changes(later.id)).toEqual([
      'PROGRAMADA -> CANCELADA',
      'CANCELADA -> EM_ANDAMENTO',
      'EM_ANDAMENTO -> FINALIZADA',
    ]);
    expect(changes(campaign.id)).toHaveLength(3);
  });

  it('paces messages: the interval after each, the longer pause after every N', async () => {
    const saved = await settings({
      messageInterval: 5,
      longerIntervalAfter: 5,
      greaterInterval: 10,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const numbers = [1, 2, 3, 4, 5, 6].map(() => nextNumber());
    const list = await listWith(numbers.map((number, i) => ({ name: `P${i}`, number })));
    const campaign = await startNow({ contactListId: list });
    const waits: number[] = [];
    for (let sent = 1; sent <= 5; sent += 1) {
      // Each step sends one message and hands the job back, due after the pause.
      await eventually(
        async () => (await sentTo()).size,
        (n) => n === sent,
        `message ${sent}`,
      );
      const job = await eventually(
        () => dispatchJob(campaign.id),
        (j) => j?.status === 'pending' && j.runAt.getTime() > Date.now() + 1000,
        'paused job',
      );
      waits.push(Math.round((job!.runAt.getTime() - job!.updatedAt.getTime()) / 1000));
      // The clock moves on: the job is due now.
      await t.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id));
      t.app.deps.jobs.kick(DISPATCH_QUEUE);
    }
    expect(waits).toEqual([5, 5, 5, 5, 10]);
    // The last message finishes the campaign at once, not one interval (5 s) later.
    await eventually(
      async () => (await sentTo()).size,
      (n) => n === 6,
      'message 6',
    );
    await eventually(
      () => read(campaign.id),
      (c) => c.status === 'FINALIZADA',
      'finished right after its last message',
      { timeoutMs: 2000 },
    );
  });

  it('stops on cancel and, restarted, sends only to those not reached yet', async () => {
    expect(
      (await settings({ messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 }))
        .statusCode,
    ).toBe(200);
    const numbers = [1, 2, 3].map(() => nextNumber());
    const list = await listWith(numbers.map((number, i) => ({ name: `Q${i}`, number })));
    const campaign = await startNow({ contactListId: list });
    await eventually(
      async () => (await sentTo()).size,
      (n) => n === 1,
      'first message',
    );
    expect((await call('POST', `/campaigns/${campaign.id}/cancel`)).json().status).toBe(
      'CANCELADA',
    );

    // Its next step comes and sends nothing.
    const job = await eventually(
      () => dispatchJob(campaign.id),
      (j) => j?.status === 'pending',
      'job',
    );
    await t.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id));
    t.app.deps.jobs.kick(DISPATCH_QUEUE);
    await eventually(
      () => dispatchJob(campaign.id),
      (j) => j?.status === 'done',
      'job ended',
    );
    expect((await sentTo()).size).toBe(1);
    // Stopped: sent of valid, the same figures the report's headline and bar show.
    expect((await read(campaign.id)).report).toMatchObject({ valid: 3, sent: 1, pending: 2 });

    // A cancelled campaign still takes new messages, but nothing else.
    expect(
      (await call('PUT', `/campaigns/${campaign.id}`, { message2: 'Variante' })).statusCode,
    ).toBe(200);
    expect((await call('PUT', `/campaigns/${campaign.id}`, { name: 'Otra' })).statusCode).toBe(409);

    // Restarts pressed at once from several tabs: one restarts, the others are told it already runs.
    await noPauses();
    const restarts = await Promise.all(
      [1, 2, 3, 4].map(() => call('POST', `/campaigns/${campaign.id}/restart`)),
    );
    expect(restarts.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    await finished(campaign.id);
    const counts = await sentTo();
    for (const number of numbers) expect(counts.get(number)).toBe(1);
  });

  it('resumes after a dispatcher died between WhatsApp’s answer and its record: nobody twice, nobody skipped', async () => {
    await noPauses();
    const numbers = [1, 2, 3, 4, 5].map(() => nextNumber());
    const list = await listWith(numbers.map((number, i) => ({ name: `R${i}`, number })));
    const channels = t.app.deps.channels;
    const realSend = channels.send.bind(channels);
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const spy = vi.spyOn(channels, 'send').mockImplementation(async (id, request) => {
      const result = await realSend(id, request);
      calls += 1;
      // The third message reaches the phone, and its sender never gets to record it (it died).
      if (calls === 3) await hung;
      return result;
    });
    try {
      const campaign = await startNow({ contactListId: list });
      await eventually(
        () => calls,
        (n) => n === 3,
        'third send',
      );
      const [stuck] = (await shippingOf(campaign.id)).filter((r) => r.status === 'sending');
      expect(stuck?.number).toBe(numbers[2]);

      // The dead node's lease runs out; another run takes the job over.
      await t.db
        .update(jobs)
        .set({ runAt: new Date(Date.now() - 1000) })
        .where(and(eq(jobs.queue, DISPATCH_QUEUE), eq(jobs.ref, `campaign:${campaign.id}`)));
      await t.app.deps.jobs.process(DISPATCH_QUEUE);
      await finished(campaign.id);
      const counts = await sentTo();
      for (const number of numbers) expect(counts.get(number), number).toBe(1);
      expect((await read(campaign.id)).report).toMatchObject({ recipients: 5, sent: 5 });
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('reports in WhatsApp’s words how far each message got: sent, delivered, read', async () => {
    await noPauses();
    const numbers = [1, 2, 3].map(() => nextNumber());
    const list = await listWith(numbers.map((number, i) => ({ name: `S${i}`, number })));
    const campaign = await startNow({ contactListId: list });
    const done = await finished(campaign.id);
    // WhatsApp took all three; none reached a phone yet.
    expect(done.report).toMatchObject({ valid: 3, sent: 3, delivered: 0, read: 0 });

    const rows = await shippingOf(campaign.id);
    const [first, second] = rows;
    const ack = (providerId: string | null, value: number) =>
      call('POST', `/simulator/${sim.id}/ack`, { id: providerId, ack: value });
    // The first phone got it and the recipient read it; the second only got it. A late, lower
    // report changes nothing.
    await ack(first!.providerId, 3);
    await ack(first!.providerId, 4);
    await ack(second!.providerId, 3);
    await ack(first!.providerId, 3);
    const reported = await eventually(
      () => read(campaign.id),
      (c) => c.report.delivered === 2 && c.report.read === 1,
      'delivery reports counted',
    );
    expect(reported.report).toMatchObject({ sent: 3, delivered: 2, read: 1, valid: 3 });
    const page = (await call('GET', `/campaigns/${campaign.id}/shipping`)).json() as {
      records: { number: string; ack: number }[];
    };
    expect(page.records.map((r) => [r.number, r.ack])).toEqual([
      [numbers[0], 4],
      [numbers[1], 3],
      [numbers[2], 2],
    ]);
    const csv = (await call('GET', `/campaigns/${campaign.id}/shipping.csv`)).body
      .slice(1)
      .split('\r\n');
    expect(csv[0]).toBe('number;name;variant;status;receipt;sentAt;confirmedAt;optedOutAt;error');
    expect(csv.slice(1, 4).map((line) => line.split(';').slice(3, 5))).toEqual([
      ['delivered', 'read'],
      ['delivered', 'delivered'],
      ['delivered', 'sent'],
    ]);
  });

  it('opts out a recipient who answers an opt-out word, for every later campaign', async () => {
    await noPauses();
    const [leaving, staying] = [nextNumber(), nextNumber()];
    const list = await listWith([
      { name: 'Elena', number: leaving },
      { name: 'Fabio', number: staying },
    ]);
    const first = await startNow({ contactListId: list });
    await finished(first.id);
    // The answer lands in the inbox as any message does, and opts the number out.
    expect(
      (await inbound(t.app, admin, sim.id, { from: leaving, body: ' baja. ' })).statusCode,
    ).toBe(200);
    await eventually(
      () =>
        t.db
          .select()
          .from(campaignOptOuts)
          .where(eq(campaignOptOuts.companyId, company.company.id)),
      (rows) => rows.length === 1 && rows[0]!.number === leaving && rows[0]!.keyword === 'BAJA',
      'opt-out',
    );
    const leavingTicket = await ticketOf(t.db, company.company.id, leaving);
    expect(leavingTicket).toBeDefined();
    // Told it was heard (the confirmation's send done).
    await ticketSettled(t.db, leavingTicket!.id);
    // The campaign they answered counts them: they got its message, so they stay sent and valid.
    const answered = await eventually(
      () => read(first.id),
      (c) => c.report.optedOut === 1,
      'the answered campaign counts the opt-out',
    );
    expect(answered.report).toMatchObject({ recipients: 2, valid: 2, sent: 2, optedOut: 1 });
    expect(
      (await call('GET', `/campaigns/${first.id}/shipping?status=opted_out`)).json(),
    ).toMatchObject({
      count: 1,
      records: [
        expect.objectContaining({
          number: leaving,
          status: 'delivered',
          optedOutAt: expect.any(String),
        }),
      ],
    });
    expect((await call('GET', `/campaigns/${first.id}/shipping.csv`)).body).toMatch(
      new RegExp(`^${leaving};Elena;1;delivered;sent;[^;]+;;\\d{4}-[^;]+;\r$`, 'm'),
    );
    // Anyone else's words do nothing.
    await inbound(t.app, admin, sim.id, { from: staying, body: 'gracias' });

    const second = await startNow({ contactListId: list });
    const done = await finished(second.id);
    // Skipped there: not a valid contact of it.
    expect(done.report).toMatchObject({ recipients: 2, valid: 1, sent: 1, optedOut: 1 });
    // They got the first campaign and the confirmation of their opt-out, nothing of the second.
    expect((await receivedBy(t.app, admin, sim.id, leaving)).map((m) => m.body)).toEqual([
      'Hola Elena',
      'Listo, ya no te enviaremos mensajes de nuestras campañas.',
    ]);
    expect((await sentTo()).get(staying)).toBe(2);
  });

  it('confirms an opt-out to the recipient instead of the chatbot menu, once even if WhatsApp delivers the answer twice', async () => {
    await noPauses();
    await settings({ optOutMessage: 'Listo, no recibirás más promociones.' });
    // A connection whose chatbot greets new conversations with its queues.
    const made = await t.db
      .insert(queues)
      .values(
        ['Ventas', 'Soporte'].map((name, i) => ({
          companyId: company.company.id,
          name,
          color: `#1234${i}0`,
        })),
      )
      .returning();
    const bot = await pairedSimulator(t.app, admin, {
      greetingMessage: '¡Hola! Elige un área:',
      queueIds: made.map((q) => q.id),
    });
    const [leaving, staying] = [nextNumber(), nextNumber()];
    const list = await listWith([
      { name: 'Irene', number: leaving },
      { name: 'Julio', number: staying },
    ]);
    const campaign = await startNow({ contactListId: list, whatsappId: bot.id });
    await finished(campaign.id);

    const answer = (from: string, body: string, id: string) =>
      call('POST', `/simulator/${bot.id}/inbound`, { from, body, id });
    const optOutId = `OPTOUT${phone}`;
    expect((await answer(leaving, 'Baja', optOutId)).statusCode).toBe(200);
    const ticket = (await ticketOf(t.db, company.company.id, leaving))!;
    await ticketSettled(t.db, ticket.id);
    // WhatsApp delivers the same answer again: nothing more happens.
    expect((await answer(leaving, 'Baja', optOutId)).statusCode).toBe(200);
    await ticketSettled(t.db, ticket.id);
    expect((await receivedBy(t.app, admin, bot.id, leaving)).map((m) => m.body)).toEqual([
      'Hola Irene',
      'Listo, no recibirás más promociones.',
    ]);
    // The conversation waits for a person, in no queue, without the bot's menu.
    const [after] = await t.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(after).toMatchObject({ status: 'pending', queueId: null, chatbot: false });
    expect(await messageTexts(t.db, ticket.id)).toEqual(
      expect.arrayContaining(['Baja', 'Listo, no recibirás más promociones.']),
    );
    expect(await messageTexts(t.db, ticket.id)).not.toContainEqual(
      expect.stringContaining('Elige un área'),
    );

    // Any other answer goes to the chatbot as usual.
    await answer(staying, 'Hola', `HOLA${phone}`);
    const greeted = await untilReceived(t.app, admin, bot.id, staying, 2, 'the menu');
    expect(greeted[1]).toContain('¡Hola! Elige un área:');
  });

  it('shows the campaign message in the conversation of a recipient who answers, after it finished, once', async () => {
    await noPauses();
    const [quiet, chatting] = [nextNumber(), nextNumber()];
    // One of them is already in a conversation with the company when the campaign goes out.
    await inbound(t.app, admin, sim.id, {
      from: chatting,
      body: 'Buenas, una consulta',
      name: 'Luis',
    });
    const list = await listWith([
      { name: 'Karla', number: quiet },
      { name: 'Luis', number: chatting },
    ]);
    const campaign = await startNow({ contactListId: list });
    await finished(campaign.id);

    // The conversation already open shows the campaign message at once.
    const open = (await ticketOf(t.db, company.company.id, chatting))!;
    await eventually(
      () => conversation(open.id),
      (texts) => texts.length === 2,
      'the campaign message in the open conversation',
    );
    expect(await conversation(open.id)).toEqual([
      ['contact', 'Buenas, una consulta'],
      ['me', 'Hola Luis'],
    ]);

    // The other answers after the campaign finished: their new conversation starts with what they
    // answer to, even when WhatsApp delivers the answer twice.
    const answer = { from: quiet, body: '¿Hasta cuándo vale?', id: `ANSWER${phone}` };
    expect((await call('POST', `/simulator/${sim.id}/inbound`, answer)).statusCode).toBe(200);
    expect((await call('POST', `/simulator/${sim.id}/inbound`, answer)).statusCode).toBe(200);
    await inbound(t.app, admin, sim.id, { from: quiet, body: 'Gracias' });
    const ticket = (await ticketOf(t.db, company.company.id, quiet))!;
    expect(await conversation(ticket.id)).toEqual([
      ['me', 'Hola Karla'],
      ['contact', '¿Hasta cuándo vale?'],
      ['contact', 'Gracias'],
    ]);
    // As the agent reads it, with WhatsApp's ticks.
    const page = (await call('GET', `/messages/${ticket.id}`)).json() as {
      messages: { body: string; fromMe: boolean; ack: number }[];
    };
    expect(page.messages.find((m) => m.body === 'Hola Karla')).toMatchObject({
      fromMe: true,
      ack: 2,
    });
  });

  it('asks for confirmation first and sends the message once the recipient answers', async () => {
    await noPauses();
    const number = nextNumber();
    const list = await listWith([{ name: 'Gabriela', number }]);
    const campaign = await startNow({
      contactListId: list,
      confirmation: true,
      confirmationMessage1: '{{firstName}}, ¿quieres recibir nuestras ofertas? Responde SÍ',
      message1: 'Oferta para {{firstName}}',
    });
    const waiting = await finished(campaign.id);
    expect(waiting.report).toMatchObject({ awaitingConfirmation: 1, sent: 0 });
    expect((await outbound(t.app, admin, sim.id)).map((m) => m.body)).toEqual([
      'Gabriela, ¿quieres recibir nuestras ofertas? Responde SÍ',
    ]);

    await inbound(t.app, admin, sim.id, { from: number, body: 'Sí' });
    await t.app.deps.jobs.run(CAMPAIGNS_JOB);
    await eventually(
      () => read(campaign.id),
      (c) => c.report.sent === 1 && c.report.confirmed === 1,
      'confirmed and sent',
    );
    expect((await outbound(t.app, admin, sim.id)).map((m) => m.body)).toEqual([
      'Gabriela, ¿quieres recibir nuestras ofertas? Responde SÍ',
      'Oferta para Gabriela',
    ]);
    // The conversation holds the request answered, the answer, and the message that followed.
    const ticket = (await ticketOf(t.db, company.company.id, number))!;
    await eventually(
      () => conversation(ticket.id),
      (texts) => texts.length === 3,
      'the campaign messages in the conversation',
    );
    expect(await conversation(ticket.id)).toEqual([
      ['me', 'Gabriela, ¿quieres recibir nuestras ofertas? Responde SÍ'],
      ['contact', 'Sí'],
      ['me', 'Oferta para Gabriela'],
    ]);
  });
});
