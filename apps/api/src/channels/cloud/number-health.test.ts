import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TemplateList, WhatsappView } from '@atendi/shared';
import { connectionHistory, whatsapps } from '../../db/schema';
import { GRAPH_TOKEN, signPayload, startFakeGraph, type FakeGraph } from '../../../test/fake-graph';
import { eventually } from '../../../test/eventually';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from '../../../test/harness';

// Issue 39, number health on the Cloud API: Meta's quality rating and messaging limit tier (read
// when the number connects, then from the phone_number_quality_update webhook), a ban from
// account_update, and template reviews from message_template_status_update, each signed as Meta
// signs them and shown on the connection and the templates.

const SECRET = 'health-app-secret';
let t: TestContext;
let graph: FakeGraph;
let admin: Session;
let seq = 0;
const unique = () => `${process.pid % 1000}${String((seq += 1)).padStart(4, '0')}`;

beforeAll(async () => {
  graph = await startFakeGraph();
  t = await createTestApp();
  const company = await makeCompany(t.db);
  admin = await login(t.app, company.admin.email);
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

// A Cloud API number of the admin's company, connected; Meta rates it as given.
const cloudNumber = async (
  health: { quality_rating?: string; messaging_limit_tier?: string } = {},
  session = admin,
  secret = SECRET,
) => {
  const phoneNumberId = `1${unique()}`;
  const display = `+57 300 ${unique()}`;
  const account = `9${unique()}`;
  graph.addPhoneNumber(phoneNumberId, display, 'Tienda', health);
  graph.addTemplate(account, {
    id: `T${unique()}`,
    name: 'bienvenida',
    language: 'es',
    status: 'APPROVED',
    components: [{ type: 'BODY', text: 'Hola' }],
  });
  const res = await inject(t.app, session, 'POST', '/whatsapp', {
    name: `Cloud ${unique()}`,
    provider: 'cloud',
    cloudPhoneNumberId: phoneNumberId,
    cloudAccessToken: GRAPH_TOKEN,
    cloudAppSecret: secret,
    cloudVerifyToken: `verify-${unique()}`,
    cloudApiBaseUrl: graph.url,
    cloudBusinessAccountId: account,
  });
  expect(res.statusCode, res.body).toBe(201);
  const connection = await eventually(
    async () =>
      (await inject(t.app, session, 'GET', `/whatsapp/${res.json().id}`)).json() as WhatsappView,
    (c) => c.status === 'CONNECTED',
    'connected',
  );
  return { connection, account, display };
};

// Meta's account-level webhook: one change of a field on the business account.
const notify = (
  account: string,
  field: string,
  value: Record<string, unknown>,
  secret = SECRET,
) => {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: account, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }],
  });
  return t.app.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signPayload(raw, secret),
    },
    payload: raw,
  });
};

const view = async (id: number) =>
  (await inject(t.app, admin, 'GET', `/whatsapp/${id}`)).json() as WhatsappView;

describe('Cloud API number health', () => {
  it('reads the quality rating and tier when the number connects', async () => {
    const { connection } = await cloudNumber({
      quality_rating: 'YELLOW',
      messaging_limit_tier: 'TIER_1K',
    });
    const shown = await eventually(
      () => view(connection.id),
      (c) => c.cloudMessagingLimit !== null,
      'health read',
    );
    expect(shown).toMatchObject({ cloudQualityRating: 'YELLOW', cloudMessagingLimit: 'TIER_1K' });
    expect(
      graph.requests.some((r) => r.query.get('fields')?.includes('messaging_limit_tier')),
    ).toBe(true);
  });

  it('follows phone_number_quality_update: flagged and downgraded, then recovered', async () => {
    const { connection, account, display } = await cloudNumber({
      quality_rating: 'GREEN',
      messaging_limit_tier: 'TIER_1K',
    });
    const flagged = await notify(account, 'phone_number_quality_update', {
      display_phone_number: display.replace(/\D/g, ''),
      event: 'FLAGGED',
      current_limit: 'TIER_1K',
    });
    expect(flagged.statusCode, flagged.body).toBe(200);
    expect(await view(connection.id)).toMatchObject({
      cloudQualityRating: 'RED',
      cloudMessagingLimit: 'TIER_1K',
    });
    await notify(account, 'phone_number_quality_update', {
      display_phone_number: display.replace(/\D/g, ''),
      event: 'DOWNGRADE',
      current_limit: 'TIER_250',
    });
    expect(await view(connection.id)).toMatchObject({
      cloudQualityRating: 'RED',
      cloudMessagingLimit: 'TIER_250',
    });
    // Delivered twice, as Meta may: the same state.
    for (let i = 0; i < 2; i += 1)
      await notify(account, 'phone_number_quality_update', {
        display_phone_number: display.replace(/\D/g, ''),
        event: 'UNFLAGGED',
        current_limit: 'TIER_250',
      });
    expect(await view(connection.id)).toMatchObject({
      cloudQualityRating: 'GREEN',
      cloudMessagingLimit: 'TIER_250',
    });
  });

  it('shows a template Meta paused or rejected, and a banned account as a dropped number', async () => {
    const { connection, account } = await cloudNumber();
    const synced = await inject(t.app, admin, 'POST', `/whatsapp/${connection.id}/templates/sync`);
    expect(synced.statusCode, synced.body).toBe(200);
    const [template] = (synced.json() as TemplateList).templates;
    const paused = await notify(account, 'message_template_status_update', {
      event: 'PAUSED',
      message_template_id: 12345,
      message_template_name: template.name,
      message_template_language: template.language,
      reason: 'LOW_QUALITY',
    });
    expect(paused.statusCode, paused.body).toBe(200);
    const listed = (
      await inject(t.app, admin, 'GET', `/whatsapp/${connection.id}/templates`)
    ).json() as TemplateList;
    expect(listed.templates.map((tpl) => tpl.status)).toEqual(['PAUSED']);

    const banned = await notify(account, 'account_update', {
      event: 'DISABLED_UPDATE',
      ban_info: { waba_ban_state: 'DISABLE', waba_ban_date: '2026-11-29' },
    });
    expect(banned.statusCode, banned.body).toBe(200);
    expect((await view(connection.id)).status).toBe('DISCONNECTED');
    const history = await t.db
      .select()
      .from(connectionHistory)
      .where(
        and(eq(connectionHistory.whatsappId, connection.id), eq(connectionHistory.cause, 'banned')),
      );
    expect(history).toHaveLength(1);
  });

  it('believes only a signature of the connection’s app: another company’s number stays as it was', async () => {
    const { connection, account, display } = await cloudNumber({ messaging_limit_tier: 'TIER_1K' });
    await eventually(
      () => view(connection.id),
      (c) => c.cloudMessagingLimit === 'TIER_1K',
      'read',
    );
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const theirs = await cloudNumber(
      { messaging_limit_tier: 'TIER_10K' },
      otherAdmin,
      'other-secret',
    );
    // The other company's number joins the same business account id.
    await t.db
      .update(whatsapps)
      .set({ cloudBusinessAccountId: account })
      .where(eq(whatsapps.id, theirs.connection.id));

    const forged = await notify(
      account,
      'phone_number_quality_update',
      {
        display_phone_number: display.replace(/\D/g, ''),
        event: 'DOWNGRADE',
        current_limit: 'TIER_50',
      },
      'not-the-secret',
    );
    expect(forged.statusCode).toBe(401);
    expect((await view(connection.id)).cloudMessagingLimit).toBe('TIER_1K');

    // Signed by the other company's app: only its number could be touched, and it names ours.
    const crossed = await notify(
      account,
      'phone_number_quality_update',
      {
        display_phone_number: display.replace(/\D/g, ''),
        event: 'DOWNGRADE',
        current_limit: 'TIER_50',
      },
      'other-secret',
    );
    expect(crossed.statusCode).toBe(200);
    expect((await view(connection.id)).cloudMessagingLimit).toBe('TIER_1K');

    // An account nobody has, or a value that is not Meta's, changes nothing.
    expect((await notify('000', 'account_update', { event: 'VERIFIED_ACCOUNT' })).statusCode).toBe(
      200,
    );
    const odd = await notify(account, 'phone_number_quality_update', {
      display_phone_number: display.replace(/\D/g, ''),
      event: 'drop table',
      current_limit: 'TIER_50',
    });
    expect(odd.statusCode).toBe(200);
    expect((await view(connection.id)).cloudMessagingLimit).toBe('TIER_1K');
  });
});

describe('Cloud API read receipts and typing', () => {
  // A contact writes to the number (a signed webhook, as Meta delivers it); the admin holds the chat.
  const contactWrites = async (phoneNumberId: string, from: string, id: string) => {
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '573000000000', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: 'Lucía' }, wa_id: from }],
                messages: [
                  {
                    from,
                    id,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: 'Hola' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
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
  };
  const readsOf = (id: string) =>
    graph.requests.filter((r) => r.json?.status === 'read' && r.json?.message_id === id);

  it('marks the contact’s messages read when the chat opens, unless the company turned it off', async () => {
    const { connection } = await cloudNumber();
    const from = `57310${unique()}`;
    await contactWrites(connection.cloudPhoneNumberId!, from, `wamid.first.${from}`);
    const ticket = await eventually(
      async () =>
        (
          (await inject(t.app, admin, 'GET', '/tickets?status=pending&showAll=true')).json() as {
            tickets: { id: number; contact: { number: string } }[];
          }
        ).tickets.find((row) => row.contact.number === from),
      Boolean,
      'ticket',
    );
    await inject(t.app, admin, 'PUT', `/tickets/${ticket!.id}`, {
      status: 'open',
      userId: admin.userId,
    });
    await inject(t.app, admin, 'GET', `/messages/${ticket!.id}`);
    await eventually(
      async () => readsOf(`wamid.first.${from}`).length,
      (n) => n === 1,
      'read',
    );

    // Typing rides on the last message, as Meta's indicator does.
    await inject(t.app, admin, 'POST', `/messages/${ticket!.id}/typing`, { typing: true });
    expect(
      graph.requests.filter(
        (r) => r.json?.typing_indicator && r.json?.message_id === `wamid.first.${from}`,
      ),
    ).toHaveLength(1);

    await inject(t.app, admin, 'PUT', '/settings/readReceipts', { value: 'disabled' });
    await contactWrites(connection.cloudPhoneNumberId!, from, `wamid.second.${from}`);
    await eventually(
      async () =>
        (
          (await inject(t.app, admin, 'GET', `/messages/${ticket!.id}?markRead=false`)).json() as {
            messages: unknown[];
          }
        ).messages.length,
      (n) => n === 2,
      'second message stored',
    );
    const opened = await inject(t.app, admin, 'GET', `/messages/${ticket!.id}`);
    expect(opened.statusCode).toBe(200);
    // Read here (the badge goes), not on the contact's phone; and no typing, which would mark it.
    await inject(t.app, admin, 'POST', `/messages/${ticket!.id}/typing`, { typing: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(readsOf(`wamid.second.${from}`)).toHaveLength(0);
    await inject(t.app, admin, 'PUT', '/settings/readReceipts', { value: 'enabled' });
  });
});
