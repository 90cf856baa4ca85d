import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  CampaignView,
  ChatMessageView,
  MessagesPage,
  TemplateList,
  WhatsappView,
} from '@atendi/shared';
import {
  GRAPH_TOKEN,
  signPayload,
  startFakeGraph,
  webhookBody,
  type FakeGraph,
  type FakeTemplate,
  type RecordedRequest,
} from '../../../test/fake-graph';
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
import { pairedSimulator, ticketOf } from '../../../test/inbox';
import { multipart } from '../../../test/multipart';
import { campaignShipping, contactListItems, messages, whatsapps } from '../../db/schema';
import { isSealed } from '../../platform/secrets';

// Cloud API templates and the 24-hour window, against the
// Graph stand-in: the account's templates are synced, the inbox refuses free-form messages outside
// the window and sends a template instead, and a campaign opens each conversation with one.

const SECRET = 'templates-app-secret';

let t: TestContext;
let graph: FakeGraph;
let company: Awaited<ReturnType<typeof makeCompany>>;
let admin: Session;
let cloud: WhatsappView;
let account: string;
let seq = 0;
const unique = () => `${process.pid % 10000}${String((seq += 1)).padStart(4, '0')}`;

const promo = (id: string, status = 'APPROVED'): FakeTemplate => ({
  id,
  name: `promo_${id}`,
  language: 'es',
  status,
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hola {{1}}' },
    { type: 'BODY', text: 'Tu código {{1}} vence el {{2}}. Número: {{3}}' },
    { type: 'FOOTER', text: 'Responde BAJA para no recibir más' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Quiero' }] },
  ],
});
const withImage = (id: string): FakeTemplate => ({
  id,
  name: `foto_${id}`,
  language: 'es_MX',
  status: 'APPROVED',
  parameter_format: 'NAMED',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Hola {{first_name}}, mira la novedad' },
  ],
});

beforeAll(async () => {
  graph = await startFakeGraph();
  t = await createTestApp({ CAMPAIGNS_INTERVAL: '0' });
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

const call = (method: Method, url: string, body?: object, session = admin) =>
  inject(t.app, session, method, url, body);

// A Cloud API connection of the admin's company whose business account lists these templates.
const cloudConnection = async (templates: FakeTemplate[]) => {
  const phoneNumberId = `1${unique()}`;
  account = `9${unique()}`;
  graph.addPhoneNumber(phoneNumberId, `+57 300 ${unique()}`);
  for (const template of templates) graph.addTemplate(account, template);
  const res = await call('POST', '/whatsapp', {
    name: `Cloud ${unique()}`,
    provider: 'cloud',
    cloudPhoneNumberId: phoneNumberId,
    cloudAccessToken: GRAPH_TOKEN,
    cloudAppSecret: SECRET,
    cloudVerifyToken: `verify-${unique()}`,
    cloudApiBaseUrl: graph.url,
    cloudBusinessAccountId: account,
  });
  expect(res.statusCode, res.body).toBe(201);
  const connection = res.json() as WhatsappView;
  await eventually(
    async () => (await call('GET', `/whatsapp/${connection.id}`)).json() as WhatsappView,
    (c) => c.status === 'CONNECTED',
    'cloud connection connected',
  );
  return connection;
};

const sync = async (id = cloud.id, session = admin) => {
  const res = await call('POST', `/whatsapp/${id}/templates/sync`, undefined, session);
  return { res, list: res.json() as TemplateList };
};

// A contact writes to the Cloud API number (a signed webhook, processed as Meta would deliver it).
const contactWrites = async (from: string, body: string) => {
  const raw = JSON.stringify(
    webhookBody({
      phoneNumberId: cloud.cloudPhoneNumberId!,
      value: {
        contacts: [{ profile: { name: 'Lucía Gómez' }, wa_id: from }],
        messages: [
          {
            from,
            id: `wamid.in.${unique()}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body },
          },
        ],
      },
    }),
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signPayload(raw, SECRET),
    },
    payload: raw,
  });
  expect(res.statusCode, res.body).toBe(200);
  return eventually(
    () => ticketOf(t.db, company.company.id, from),
    (ticket) => ticket !== undefined,
    'ticket of the inbound message',
  );
};

const sentTemplates = (to?: string) =>
  graph.requests.filter(
    (r): r is RecordedRequest & { json: Record<string, unknown> } =>
      r.path.endsWith('/messages') &&
      r.json?.type === 'template' &&
      (to === undefined || r.json.to === to),
  );

beforeEach(async () => {
  company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
});

describe('template sync', () => {
  it("copies the business account's templates across pages, keeps their shape, marks vanished ones deleted", async () => {
    const many = Array.from({ length: 104 }, (_, i) => promo(`p${unique()}${i}`));
    cloud = await cloudConnection([...many, withImage(`i${unique()}`)]);
    expect(cloud.cloudBusinessAccountId).toBe(account);
    // Sealed at rest (a copy of the database reveals neither), opened for the Graph API below.
    const [stored] = await t.db.select().from(whatsapps).where(eq(whatsapps.id, cloud.id));
    for (const [sealed, plain] of [
      [stored.cloudAccessToken!, GRAPH_TOKEN],
      [stored.cloudAppSecret!, SECRET],
    ]) {
      expect(isSealed(sealed)).toBe(true);
      expect(sealed).not.toContain(plain);
      expect(t.app.deps.secrets.open(sealed)).toBe(plain);
    }

    const before = await call('GET', `/whatsapp/${cloud.id}/templates`);
    expect(before.json()).toEqual({ templates: [], syncedAt: null });

    const { res, list } = await sync();
    expect(res.statusCode, res.body).toBe(200);
    expect(list.templates).toHaveLength(105);
    expect(list.syncedAt).not.toBeNull();
    // Two pages of the listing, each asking for what the screens need.
    const listings = graph.requests.filter((r) => r.path.endsWith(`/${account}/message_templates`));
    expect(listings).toHaveLength(2);
    expect(listings[1].query.get('after')).toBe('100');
    expect(listings[0].query.get('fields')).toContain('components');
    expect(listings[0].headers.authorization).toBe(`Bearer ${GRAPH_TOKEN}`);

    const text = list.templates.find((x) => x.name === many[0].name)!;
    expect(text).toMatchObject({
      language: 'es',
      status: 'APPROVED',
      category: 'MARKETING',
      headerFormat: 'TEXT',
      headerText: 'Hola {{1}}',
      headerParams: ['1'],
      bodyParams: ['1', '2', '3'],
      footerText: 'Responde BAJA para no recibir más',
      buttons: ['Quiero'],
    });
    const image = list.templates.find((x) => x.name.startsWith('foto_'))!;
    expect(image).toMatchObject({
      headerFormat: 'IMAGE',
      headerParams: [],
      bodyParams: ['first_name'],
    });

    // Agents read the copy (the inbox offers it), only admins sync it.
    const agent = await login(t.app, (await makeUser(t.db, company.company.id, 'user')).email);
    expect((await call('GET', `/whatsapp/${cloud.id}/templates`, undefined, agent)).json()).toEqual(
      list,
    );
    expect((await sync(cloud.id, agent)).res.statusCode).toBe(403);

    // Twice at once: the same copy, no duplicates.
    const [a, b] = await Promise.all([sync(), sync()]);
    expect([a.res.statusCode, b.res.statusCode]).toEqual([200, 200]);
    expect(b.list.templates).toHaveLength(105);
  });

  it('marks templates the account no longer lists as deleted and takes status changes', async () => {
    const kept = promo(`k${unique()}`, 'PENDING');
    const gone = promo(`g${unique()}`);
    cloud = await cloudConnection([kept, gone]);
    await sync();
    // The fake lists per account: a second account id stands for the account as it is now.
    const now = `8${unique()}`;
    graph.addTemplate(now, { ...kept, status: 'APPROVED' });
    expect(
      (await call('PUT', `/whatsapp/${cloud.id}`, { cloudBusinessAccountId: now })).statusCode,
    ).toBe(200);
    const { list } = await sync();
    expect(list.templates.map((x) => [x.name, x.status])).toEqual(
      [
        [kept.name, 'APPROVED'],
        [gone.name, 'DELETED'],
      ].sort(),
    );
  });

  it('refuses connections that cannot have templates, and hides other companies', async () => {
    cloud = await cloudConnection([]);
    const sim = await pairedSimulator(t.app, admin, {});
    const notCloud = await sync(sim.id);
    expect(notCloud.res.statusCode).toBe(400);
    expect(notCloud.res.json().error).toBe('ERR_VALIDATION');

    await call('PUT', `/whatsapp/${cloud.id}`, { cloudBusinessAccountId: null });
    const noAccount = await sync();
    expect(noAccount.res.statusCode).toBe(400);
    expect(noAccount.res.json().fields).toHaveProperty('cloudBusinessAccountId');

    // Graph refusing the token: the admin reads why, nothing is copied.
    await call('PUT', `/whatsapp/${cloud.id}`, { cloudBusinessAccountId: account });
    graph.failNext('auth', '/message_templates');
    const refused = await sync();
    expect(refused.res.statusCode).toBe(400);
    expect(refused.res.json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(refused.res.body).not.toContain(GRAPH_TOKEN);

    const other = await makeCompany(t.db);
    const outsider = await login(t.app, other.admin.email);
    for (const [method, url] of [
      ['GET', `/whatsapp/${cloud.id}/templates`],
      ['POST', `/whatsapp/${cloud.id}/templates/sync`],
    ] as const) {
      const res = await call(method, url, undefined, outsider);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_WAPP_FOUND');
    }
  });
});

describe('the 24-hour window in the inbox', () => {
  it('refuses a free-form message once the window closed and sends an approved template instead', async () => {
    const approved = promo(`a${unique()}`);
    const pending = promo(`w${unique()}`, 'PENDING');
    const image = withImage(`h${unique()}`);
    cloud = await cloudConnection([approved, pending, image]);
    const { list } = await sync();
    const idOf = (name: string) => list.templates.find((x) => x.name === name)!.id;
    const customer = `57310${unique()}`;
    const ticket = (await contactWrites(customer, 'Hola, ¿tienen envíos?'))!;
    expect((await call('PUT', `/tickets/${ticket.id}`, { status: 'open' })).statusCode).toBe(200);

    const page = (await call('GET', `/messages/${ticket.id}`)).json() as MessagesPage;
    expect(page.replyWindow?.open).toBe(true);
    const closesIn = new Date(page.replyWindow!.closesAt!).getTime() - Date.now();
    expect(closesIn).toBeGreaterThan(23.9 * 3600_000);
    expect(closesIn).toBeLessThanOrEqual(24 * 3600_000);
    const inWindow = await call('POST', `/messages/${ticket.id}`, { body: 'Sí, a todo el país' });
    expect(inWindow.statusCode, inWindow.body).toBe(201);

    // A day and an hour later.
    await t.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false)));
    const closed = (await call('GET', `/messages/${ticket.id}`)).json() as MessagesPage;
    expect(closed.replyWindow).toMatchObject({ open: false });
    const refused = await call('POST', `/messages/${ticket.id}`, { body: '¿Sigues ahí?' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'ERR_WAPP_WINDOW_CLOSED' });
    expect(refused.json().details.closesAt).toBe(closed.replyWindow!.closesAt);

    // Templates that cannot go: missing values, not approved, a file header, another company's.
    const missing = await call('POST', `/messages/${ticket.id}/template`, {
      templateId: idOf(approved.name),
      params: { header: ['Lucía'], body: ['X1', ''] },
    });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields).sort()).toEqual(['params.body.1', 'params.body.2']);
    const notApproved = await call('POST', `/messages/${ticket.id}/template`, {
      templateId: idOf(pending.name),
      params: { header: ['a'], body: ['b', 'c', 'd'] },
    });
    expect(notApproved.statusCode).toBe(400);
    expect(notApproved.json().fields.templateId[0]).toContain('PENDING');
    const fileHeader = await call('POST', `/messages/${ticket.id}/template`, {
      templateId: idOf(image.name),
      params: { body: ['Lucía'] },
    });
    expect(fileHeader.statusCode).toBe(400);
    const other = await makeCompany(t.db);
    const outsider = await login(t.app, other.admin.email);
    const foreign = await call(
      'POST',
      `/messages/${ticket.id}/template`,
      { templateId: idOf(approved.name), params: {} },
      outsider,
    );
    expect(foreign.statusCode).toBe(404);
    expect(sentTemplates(customer)).toHaveLength(0);

    const sent = await call('POST', `/messages/${ticket.id}/template`, {
      templateId: idOf(approved.name),
      params: { header: ['Lucía'], body: ['X1', '30/11', customer] },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const [message] = sent.json() as ChatMessageView[];
    expect(message.body).toBe(
      `*Hola Lucía*\n\nTu código X1 vence el 30/11. Número: ${customer}\n\n_Responde BAJA para no recibir más_`,
    );
    const [request] = await eventually(
      () => sentTemplates(customer),
      (r) => r.length === 1,
      'template sent',
    );
    expect(request.json).toMatchObject({
      messaging_product: 'whatsapp',
      to: customer,
      type: 'template',
      template: {
        name: approved.name,
        language: { code: 'es' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'Lucía' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'X1' },
              { type: 'text', text: '30/11' },
              { type: 'text', text: customer },
            ],
          },
        ],
      },
    });
    const stored = await eventually(
      async () => (await t.db.select().from(messages).where(eq(messages.id, message.id)))[0],
      (row) => row.providerId !== null,
      'template recorded as sent',
    );
    expect(stored.ack).toBeGreaterThanOrEqual(1);
  });

  it('fails a free-form send Meta refuses for the window at once, without retries', async () => {
    cloud = await cloudConnection([]);
    const customer = `57311${unique()}`;
    const ticket = (await contactWrites(customer, 'Buenas'))!;
    expect((await call('PUT', `/tickets/${ticket.id}`, { status: 'open' })).statusCode).toBe(200);
    // Our copy of the window says open; Meta knows better (a clock skew, a message lost on its side).
    graph.closedWindows.add(customer);
    const sent = await call('POST', `/messages/${ticket.id}`, { body: 'Te escribo' });
    expect(sent.statusCode).toBe(201);
    const [message] = sent.json() as ChatMessageView[];
    const failed = await eventually(
      async () =>
        ((await call('GET', `/messages/${ticket.id}`)).json() as MessagesPage).messages.find(
          (m) => m.id === message.id,
        ),
      (m) => m?.error === 'ERR_SENDING_WAPP_MSG',
      'message failed',
    );
    expect(failed?.ack).toBe(0);
    const attempts = graph.requests.filter(
      (r) => r.path.endsWith('/messages') && r.json?.to === customer && r.json?.type === 'text',
    );
    expect(attempts).toHaveLength(1);
  });

  it('says nothing of a window on other providers', async () => {
    const sim = await pairedSimulator(t.app, admin, {});
    await call('POST', `/simulator/${sim.id}/inbound`, { from: '573001112233', body: 'Hola' });
    const ticket = await eventually(
      () => ticketOf(t.db, company.company.id, '573001112233'),
      (x) => x !== undefined,
      'simulator ticket',
    );
    const page = (await call('GET', `/messages/${ticket!.id}`)).json() as MessagesPage;
    expect(page.replyWindow).toBeNull();
  });
});

describe('campaigns on a Cloud API connection', () => {
  const listWith = async (people: { name: string; number: string }[]) => {
    const res = await call('POST', '/contact-lists', { name: `Lista ${unique()}` });
    const list = res.json() as { id: number };
    await t.db.insert(contactListItems).values(
      people.map((p) => ({
        companyId: company.company.id,
        contactListId: list.id,
        name: p.name,
        number: p.number,
        isWhatsappValid: null,
      })),
    );
    return list.id;
  };
  const noPauses = () =>
    call('POST', '/campaign-settings', {
      settings: {
        messageInterval: 0,
        longerIntervalAfter: 0,
        greaterInterval: 0,
        variables: [{ key: 'promo', value: 'NOV25' }],
      },
    });
  const read = async (id: number) => (await call('GET', `/campaigns/${id}`)).json() as CampaignView;
  const soon = () => new Date(Date.now() - 1000).toISOString();

  it('needs an approved template of its connection with every value, and sends it per recipient with the variables filled', async () => {
    const approved = promo(`c${unique()}`);
    const pending = promo(`d${unique()}`, 'PENDING');
    cloud = await cloudConnection([approved, pending]);
    const { list: copy } = await sync();
    const idOf = (name: string) => copy.templates.find((x) => x.name === name)!.id;
    await noPauses();
    const people = [
      { name: 'Ana María Ruiz', number: `57320${unique()}` },
      { name: 'Pedro Páez', number: `57320${unique()}` },
      { name: 'Lina', number: `57320${unique()}` },
    ];
    const listId = await listWith(people);
    const base = { name: 'Black Friday', whatsappId: cloud.id, contactListId: listId };
    const params = {
      header: ['{{firstName}}'],
      body: ['{{promo}}', '30/11', '{{number}}'],
    };

    // Free-form text cannot open conversations on the Cloud API.
    const noTemplate = await call('POST', '/campaigns', {
      ...base,
      message1: 'Hola',
      scheduledAt: soon(),
    });
    expect(noTemplate.statusCode).toBe(400);
    expect(noTemplate.json().fields).toHaveProperty('templateId');
    // A draft may hold a pending template and unwritten values; scheduling it may not.
    const draft = await call('POST', '/campaigns', { ...base, templateId: idOf(pending.name) });
    expect(draft.statusCode, draft.body).toBe(201);
    const draftId = (draft.json() as CampaignView).id;
    const schedule = await call('PUT', `/campaigns/${draftId}`, { scheduledAt: soon() });
    expect(schedule.statusCode).toBe(400);
    expect(Object.keys(schedule.json().fields)).toEqual(
      expect.arrayContaining(['templateId', 'templateParams.header.0', 'templateParams.body.0']),
    );
    // Another connection's template, another company's template.
    const sim = await pairedSimulator(t.app, admin, {});
    const elsewhere = await call('PUT', `/campaigns/${draftId}`, { whatsappId: sim.id });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().fields).toHaveProperty('templateId');
    const other = await makeCompany(t.db);
    const outsider = await login(t.app, other.admin.email);
    const foreign = await call(
      'POST',
      '/campaigns',
      { name: 'Ajena', templateId: idOf(approved.name) },
      outsider,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_TEMPLATE_FOUND');

    const res = await call('POST', '/campaigns', {
      ...base,
      templateId: idOf(approved.name),
      templateParams: params,
      scheduledAt: soon(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const campaign = res.json() as CampaignView;
    expect(campaign).toMatchObject({
      template: { id: idOf(approved.name), name: approved.name, language: 'es' },
      templateParams: params,
    });
    await eventually(
      () => read(campaign.id),
      (c) => c.status === 'FINALIZADA',
      'finished',
      { timeoutMs: 20_000 },
    );

    for (const person of people) {
      const requests = graph.requests.filter(
        (r) => r.path.endsWith('/messages') && r.json?.to === person.number,
      );
      // One message per recipient, the template, nothing free-form.
      expect(requests.map((r) => r.json?.type)).toEqual(['template']);
      expect(requests[0].json?.template).toMatchObject({
        name: approved.name,
        components: [
          { type: 'header', parameters: [{ text: person.name.split(' ')[0] }] },
          {
            type: 'body',
            parameters: [{ text: 'NOV25' }, { text: '30/11' }, { text: person.number }],
          },
        ],
      });
    }
    const shipping = await t.db
      .select()
      .from(campaignShipping)
      .where(eq(campaignShipping.campaignId, campaign.id));
    expect(shipping.map((s) => s.status)).toEqual(['delivered', 'delivered', 'delivered']);
    const ana = shipping.find((s) => s.number === people[0].number)!;
    expect(ana.message).toContain(`Tu código NOV25 vence el 30/11. Número: ${people[0].number}`);
    expect(ana.message).toContain('*Hola Ana*');
    expect(ana.providerId).toMatch(/^wamid\./);
  });

  it('sends the attachment as the header file, uploaded once for every recipient', async () => {
    const image = withImage(`f${unique()}`);
    cloud = await cloudConnection([image]);
    const { list } = await sync();
    await noPauses();
    const people = [
      { name: 'Sofía', number: `57330${unique()}` },
      { name: 'Tomás', number: `57330${unique()}` },
    ];
    const draft = (
      await call('POST', '/campaigns', {
        name: 'Con foto',
        whatsappId: cloud.id,
        contactListId: await listWith(people),
        templateId: list.templates[0].id,
        templateParams: { body: ['{{firstName}}'] },
      })
    ).json() as CampaignView;
    const attach = multipart({}, [
      { field: 'file', name: 'oferta.png', type: 'image/png', data: Buffer.from('png-bytes') },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/campaigns/${draft.id}/media-upload`,
      headers: { authorization: `Bearer ${admin.token}`, ...attach.headers },
      payload: attach.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const uploadsBefore = graph.uploads.size;
    expect((await call('PUT', `/campaigns/${draft.id}`, { scheduledAt: soon() })).statusCode).toBe(
      200,
    );
    await eventually(
      () => read(draft.id),
      (c) => c.status === 'FINALIZADA',
      'finished',
      { timeoutMs: 20_000 },
    );

    expect(graph.uploads.size).toBe(uploadsBefore + 1);
    const [mediaId, file] = [...graph.uploads].at(-1)!;
    expect(file.data.toString()).toBe('png-bytes');
    for (const person of people) {
      const [request] = sentTemplates(person.number);
      expect(request.json.template).toEqual({
        name: image.name,
        language: { code: 'es_MX' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { id: mediaId } }] },
          {
            type: 'body',
            parameters: [{ type: 'text', text: person.name, parameter_name: 'first_name' }],
          },
        ],
      });
    }
  });

  it('fails each recipient with the reason when a file-header template has no attachment', async () => {
    const image = withImage(`n${unique()}`);
    cloud = await cloudConnection([image]);
    const { list } = await sync();
    await noPauses();
    const number = `57335${unique()}`;
    const campaign = (
      await call('POST', '/campaigns', {
        name: 'Sin foto',
        whatsappId: cloud.id,
        contactListId: await listWith([{ name: 'Raúl', number }]),
        templateId: list.templates[0].id,
        templateParams: { body: ['{{firstName}}'] },
        scheduledAt: soon(),
      })
    ).json() as CampaignView;
    const done = await eventually(
      () => read(campaign.id),
      (c) => c.status === 'FINALIZADA',
      'finished',
      { timeoutMs: 20_000 },
    );
    expect(done.report).toMatchObject({ recipients: 1, failed: 1, sent: 0 });
    const [row] = await t.db
      .select()
      .from(campaignShipping)
      .where(eq(campaignShipping.campaignId, campaign.id));
    expect(row.error).toContain('attach one to the campaign');
    expect(sentTemplates(number)).toHaveLength(0);
  });

  it('asks for confirmation with the template, then sends the message free-form once the contact answers', async () => {
    const approved = promo(`q${unique()}`);
    cloud = await cloudConnection([approved]);
    const { list } = await sync();
    await noPauses();
    const number = `57340${unique()}`;
    const campaign = (
      await call('POST', '/campaigns', {
        name: 'Con confirmación',
        whatsappId: cloud.id,
        contactListId: await listWith([{ name: 'Marta', number }]),
        confirmation: true,
        message1: 'Gracias {{firstName}}, aquí va tu cupón {{promo}}',
        templateId: list.templates[0].id,
        templateParams: { header: ['{{name}}'], body: ['A', 'B', 'C'] },
        scheduledAt: soon(),
      })
    ).json() as CampaignView;
    expect(campaign.id).toBeGreaterThan(0);
    await eventually(
      () => sentTemplates(number),
      (r) => r.length === 1,
      'confirmation request',
    );
    // The dispatcher records that it asked once the Graph API has answered: an answer stored before
    // that is not an answer to the question (the phone saw the request a moment earlier).
    await eventually(
      () =>
        t.db
          .select({ status: campaignShipping.status })
          .from(campaignShipping)
          .where(eq(campaignShipping.campaignId, campaign.id)),
      (rows) => rows[0]?.status === 'confirmation',
      'confirmation recorded',
    );

    await contactWrites(number, 'Sí, quiero');
    const [text] = await eventually(
      () =>
        graph.requests.filter(
          (r) => r.path.endsWith('/messages') && r.json?.to === number && r.json?.type === 'text',
        ),
      (r) => r.length === 1,
      'campaign message after the answer',
      { timeoutMs: 20_000 },
    );
    expect(text.json?.text).toMatchObject({ body: 'Gracias Marta, aquí va tu cupón NOV25' });
  });
});

describe('reading a conversation', () => {
  it('opening a Cloud API chat tells WhatsApp its newest message was read', async () => {
    cloud = await cloudConnection([]);
    const from = `57300${unique()}`;
    await contactWrites(from, 'Hola');
    const ticket = (await contactWrites(from, '¿Siguen ahí?'))!;
    const inbound = await eventually(
      () =>
        t.db.select().from(messages).where(eq(messages.ticketId, ticket.id)).orderBy(messages.id),
      (rows) => rows.length === 2,
      'both messages stored',
    );
    const res = await call('GET', `/messages/${ticket.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const reads = await eventually(
      async () =>
        graph.requests.filter(
          (r) => r.path.includes(cloud.cloudPhoneNumberId!) && r.json?.status === 'read',
        ),
      (list) => list.length > 0,
      'the read receipt',
    );
    // The newest one: WhatsApp marks every message before it read too.
    expect(reads.map((r) => r.json?.message_id)).toEqual([inbound[1].providerId]);
  });
});
