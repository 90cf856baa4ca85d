import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { auditActions, type AuditEntry } from '@atendi/shared';
import { auditLog, campaigns, contacts, webhookEndpoints } from '../../db/schema';
import {
  SUPER_EMAIL,
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Session,
  type TestContext,
} from '../../../test/harness';
import {
  signature,
  startFakeStripe,
  STRIPE_KEY,
  WEBHOOK_SECRET,
  type FakeStripe,
  type StripeEvent,
} from '../../../test/fake-stripe';
import { startLocalOidc } from '../../../test/local-oidc';
import { eventually } from '../../../test/eventually';
import { BILLING_QUEUE } from '../subscriptions/billing-webhook';
import { pruneAudit } from './audit.service';

// The audit log (issue 37): every action it records is walked through the API here, each entry
// says who, what, to what and from where; admins read their company's, super users anyone's; the
// table refuses changes, and only the retention prune removes entries.

let t: TestContext;
// The payment provider's local stand-in: checkouts and the webhooks of a payment.
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
const from = (address: string) => ({ remoteAddress: address });
const passwordStep = (email: string, password: string, address = '192.0.2.50') =>
  t.app.inject({
    method: 'POST',
    url: '/auth/login',
    ...from(address),
    payload: { email, password },
  });
const entriesOf = async (session: Session, query = '') => {
  const res = await inject(t.app, session, 'GET', `/audit${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().entries as AuditEntry[];
};
// Every page of a company's log (filters as `&name=value`).
const allEntriesOf = async (session: Session, filters = '') => {
  const all: AuditEntry[] = [];
  for (let page = 1; ; page += 1) {
    const res = await inject(t.app, session, 'GET', `/audit?pageNumber=${page}${filters}`);
    expect(res.statusCode, res.body).toBe(200);
    all.push(...(res.json().entries as AuditEntry[]));
    if (!res.json().hasMore) return all;
  }
};
// The provider's webhooks, signed as it signs them, applied by the job that runs them.
const deliver = async (events: StripeEvent[]) => {
  for (const event of events) {
    const payload = JSON.stringify(event);
    const res = await t.app.inject({
      method: 'POST',
      url: '/subscriptions/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature(payload) },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await t.app.deps.jobs.idle();
  await t.app.deps.jobs.process(BILLING_QUEUE);
};

describe('the audit log', () => {
  it('records every action it lists, with its actor, target and address', async () => {
    const { admin } = await makeCompany(t.db);
    const adminSession = await login(t.app, admin.email);
    const root = await login(t.app, SUPER_EMAIL);

    // Sign-ins: a wrong password, an unknown email, a good one.
    await passwordStep(admin.email, 'Wrong1234', '192.0.2.7');
    await passwordStep('nobody@nowhere.test', 'Wrong1234', '192.0.2.8');
    // Users: created, updated (profile), password changed, then deleted.
    const created = await inject(t.app, adminSession, 'POST', '/users', {
      name: 'Agente Auditado',
      email: 'auditado@test.local',
      password: 'Audit12345',
      profile: 'user',
    });
    expect(created.statusCode, created.body).toBe(201);
    const agentId = created.json().id as number;
    await inject(t.app, adminSession, 'PUT', `/users/${agentId}`, {
      profile: 'supervisor',
      password: 'Audit67890',
    });
    // Settings.
    await inject(t.app, adminSession, 'PUT', '/settings/userRating', { value: 'enabled' });
    // The agent's second factor: enabled, a wrong code at a sign-in, a sign-in with it, disabled.
    const agent = await login(t.app, 'auditado@test.local', 'Audit67890');
    const { secret } = (await inject(t.app, agent, 'POST', '/auth/two-factor/setup')).json();
    await inject(t.app, agent, 'POST', '/auth/two-factor/enable', { code: codeOf(secret) });
    const step = (await passwordStep('auditado@test.local', 'Audit67890')).json();
    await t.app.inject({
      method: 'POST',
      url: '/auth/login/two-factor',
      ...from('192.0.2.9'),
      payload: { challenge: step.challenge, code: codeOf(secret, 9) },
    });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/auth/login/two-factor',
      payload: { challenge: step.challenge, code: codeOf(secret, 1) },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // A super user resets it; the admin ends the agent's sessions.
    await inject(t.app, root, 'DELETE', `/users/${agentId}/two-factor`);
    await inject(t.app, adminSession, 'DELETE', `/users/${agentId}/sessions`);
    // Enabled again and turned off by the agent.
    const again = await login(t.app, 'auditado@test.local', 'Audit67890');
    const second = (await inject(t.app, again, 'POST', '/auth/two-factor/setup')).json();
    await inject(t.app, again, 'POST', '/auth/two-factor/enable', { code: codeOf(second.secret) });
    await inject(t.app, again, 'POST', '/auth/two-factor/disable', {
      password: 'Audit67890',
      code: codeOf(second.secret, 1),
    });
    // A password reset by mail.
    await t.app.inject({ method: 'POST', url: '/forgetpassword/auditado%40test.local' });
    const code = /: (\d{6})/.exec(t.mail.at(-1)!.text)![1];
    await t.app.inject({
      method: 'POST',
      url: `/resetpasswords/auditado%40test.local/${code}/Reset12345`,
    });
    await inject(t.app, adminSession, 'DELETE', `/users/${agentId}`);
    // Connections: created, token changed, deleted; a conversation deleted.
    const connection = await inject(t.app, adminSession, 'POST', '/whatsapp', {
      name: 'Auditada',
      provider: 'simulator',
    });
    expect(connection.statusCode, connection.body).toBe(201);
    const connectionId = connection.json().id as number;
    await inject(t.app, adminSession, 'POST', `/whatsapp/${connectionId}/token`);
    await inject(t.app, adminSession, 'PUT', `/whatsapp/${connectionId}`, {
      name: 'Auditada 2',
    });
    const [contact] = await t.db
      .insert(contacts)
      .values({ companyId: admin.companyId, name: 'Cliente Auditado', number: '5491155512345' })
      .returning();
    const ticket = await inject(t.app, adminSession, 'POST', '/tickets', {
      contactId: contact.id,
      whatsappId: connectionId,
      status: 'open',
    });
    expect(ticket.statusCode, ticket.body).toBeLessThan(300);
    // Its transcript taken away, then the conversation deleted.
    expect(
      (await inject(t.app, adminSession, 'GET', `/tickets/${ticket.json().id}/transcript.pdf`))
        .statusCode,
    ).toBe(200);
    await inject(t.app, adminSession, 'DELETE', `/tickets/${ticket.json().id}`);
    const spare = await inject(t.app, adminSession, 'POST', '/whatsapp', {
      name: 'Sobrante',
      provider: 'simulator',
    });
    await inject(t.app, adminSession, 'DELETE', `/whatsapp/${spare.json().id}`);
    // A contact and a campaign deleted.
    expect(
      (await inject(t.app, adminSession, 'DELETE', `/contacts/${contact.id}`)).statusCode,
    ).toBeLessThan(300);
    const [campaign] = await t.db
      .insert(campaigns)
      .values({ companyId: admin.companyId, name: 'Campaña auditada' })
      .returning();
    const gone = await inject(t.app, adminSession, 'DELETE', `/campaigns/${campaign.id}`);
    expect(gone.statusCode, gone.body).toBeLessThan(300);

    // An API token made and revoked.
    const apiToken = await inject(t.app, adminSession, 'POST', '/api-tokens', {
      name: 'Auditado',
      scopes: ['tickets:read'],
    });
    expect(apiToken.statusCode, apiToken.body).toBe(201);
    await inject(t.app, adminSession, 'DELETE', `/api-tokens/${apiToken.json().id}`);
    // A webhook endpoint made, changed, its secret read, turned off by the platform after failing
    // long enough (nothing listens at its address), deleted.
    const hook = await inject(t.app, adminSession, 'POST', '/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hook',
      events: ['ticket.created'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const hookId = hook.json().id as number;
    await inject(t.app, adminSession, 'PUT', `/webhook-endpoints/${hookId}`, {
      description: 'ERP',
    });
    await inject(t.app, adminSession, 'GET', `/webhook-endpoints/${hookId}/secret`);
    await t.db
      .update(webhookEndpoints)
      .set({ consecutiveFailures: 4, failingSince: new Date(Date.now() - 100 * 3600_000) })
      .where(eq(webhookEndpoints.id, hookId));
    const failed = await inject(t.app, adminSession, 'POST', `/webhook-endpoints/${hookId}/test`);
    expect(failed.json()).toMatchObject({ status: 'failed' });
    await inject(t.app, adminSession, 'DELETE', `/webhook-endpoints/${hookId}`);
    // Single sign-on: set up, a round trip that comes back to another browser, removed.
    const provider = await startLocalOidc({
      redirectUris: [`${t.config.publicApiUrl}/auth/sso/callback`],
    });
    try {
      const saved = await inject(t.app, adminSession, 'PUT', `/companies/${admin.companyId}/sso`, {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        domains: ['auditada.test'],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const started = await t.app.inject({
        method: 'GET',
        url: '/auth/sso/start?email=ana%40auditada.test',
      });
      const state = new URL(started.headers.location as string).searchParams.get('state');
      await t.app.inject({ method: 'GET', url: `/auth/sso/callback?code=x&state=${state}` });
      await inject(t.app, adminSession, 'DELETE', `/companies/${admin.companyId}/sso`);
    } finally {
      await provider.close();
    }

    // Downloads: the dashboard's report, a campaign's recipients and the audit log itself.
    const report = await inject(
      t.app,
      adminSession,
      'GET',
      '/dashboard/report.csv?groupBy=queue&days=7',
    );
    expect(report.statusCode, report.body).toBe(200);
    const [exported] = await t.db
      .insert(campaigns)
      .values({ companyId: admin.companyId, name: 'Campaña exportada' })
      .returning();
    const recipients = await inject(
      t.app,
      adminSession,
      'GET',
      `/campaigns/${exported.id}/shipping.csv`,
    );
    expect(recipients.statusCode, recipients.body).toBe(200);
    const conversationsExport = await inject(t.app, adminSession, 'POST', '/conversation-exports', {
      dateFrom: '2026-01-01',
      dateTo: '2026-01-31',
      format: 'csv',
    });
    expect(conversationsExport.statusCode, conversationsExport.body).toBe(201);
    await eventually(
      async () =>
        (
          await inject(
            t.app,
            adminSession,
            'GET',
            `/conversation-exports/${conversationsExport.json().id}/download`,
          )
        ).statusCode,
      (status) => status === 200,
      'the conversations export downloaded',
    );
    const log = await inject(t.app, adminSession, 'GET', '/audit.csv?action=user.created');
    expect(log.statusCode, log.body).toBe(200);

    // Billing: a super user makes a plan, changes it, prices it at the provider and deletes another;
    // they make the company overdue; its admin pays for the plan, and the provider's webhooks apply
    // the payment.
    const plan = await inject(t.app, root, 'POST', '/plans', { name: 'Plan Auditado', value: 39 });
    expect(plan.statusCode, plan.body).toBe(201);
    const planId = plan.json().id as number;
    await inject(t.app, root, 'PUT', `/plans/${planId}`, { value: 49, users: 10 });
    const priced = await inject(t.app, root, 'POST', `/plans/${planId}/price`);
    expect(priced.statusCode, priced.body).toBe(200);
    const unused = await inject(t.app, root, 'POST', '/plans', { name: 'Plan Sobrante' });
    await inject(t.app, root, 'DELETE', `/plans/${unused.json().id}`);
    const overdue = await inject(t.app, root, 'PUT', `/companies/${admin.companyId}`, {
      status: 'overdue',
      dueDate: '2020-01-31T12:00:00.000Z',
      phone: '5491100000000',
    });
    expect(overdue.statusCode, overdue.body).toBe(200);
    const checkout = await inject(t.app, adminSession, 'POST', '/subscriptions/checkout', {
      planId,
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const checkoutSession = new URL(checkout.json().url as string).pathname.split('/').pop()!;
    await deliver(stripe.complete(checkoutSession));

    const mine = await allEntriesOf(adminSession);
    const platformOnes = await allEntriesOf(root, '&companyId=0');
    // The super user's own company's: the plans, which belong to no company.
    const operators = await allEntriesOf(root);
    const seen = new Set([...mine, ...platformOnes, ...operators].map((entry) => entry.action));
    expect([...seen].sort()).toEqual([...auditActions].sort());

    const first = (action: string) => mine.find((entry) => entry.action === action)!;
    expect(first('auth.login_failed')).toMatchObject({
      userId: admin.id,
      address: '192.0.2.7',
      detail: { email: admin.email },
    });
    expect(platformOnes.find((e) => e.action === 'auth.login_failed')).toMatchObject({
      companyId: null,
      userId: null,
      detail: { email: 'nobody@nowhere.test' },
    });
    expect(first('user.updated')).toMatchObject({
      actor: admin.email,
      target: `user:${agentId}`,
      detail: { profile: { from: 'user', to: 'supervisor' } },
    });
    expect(first('auth.two_factor_failed')).toMatchObject({
      userId: agentId,
      address: '192.0.2.9',
    });
    expect(first('auth.two_factor_reset')).toMatchObject({
      actor: SUPER_EMAIL,
      target: `user:${agentId}`,
    });
    expect(
      mine.some(
        (e) => e.action === 'auth.login' && (e.detail as { with?: string }).with === 'totp',
      ),
    ).toBe(true);
    expect(first('connection.updated')).toMatchObject({ detail: { fields: ['name'] } });
    expect(first('setting.updated')).toMatchObject({
      target: 'setting:userRating',
      detail: { value: 'enabled' },
    });
    // Deleted users stay named.
    expect(first('user.deleted')).toMatchObject({ detail: { email: 'auditado@test.local' } });
    // Downloads name the file and the filters, never the content.
    expect(first('export.report')).toMatchObject({
      actor: admin.email,
      target: expect.stringMatching(/^file:report-queue-/),
      detail: { groupBy: 'queue', days: 7 },
    });
    expect(first('export.campaign')).toMatchObject({
      target: `file:campaign-${exported.id}.csv`,
      detail: { campaignId: exported.id },
    });
    expect(first('export.audit')).toMatchObject({ detail: { action: 'user.created' } });
    // Billing: plans in the operators' log, with their values; the company's changes in its own.
    const planUpdates = operators.filter((entry) => entry.action === 'plan.updated');
    expect(planUpdates.map((entry) => entry.detail)).toEqual([
      { fields: ['stripePriceId'], stripePriceId: priced.json().stripePriceId },
      { fields: ['users', 'value'], users: 10, value: 49 },
    ]);
    expect(operators.filter((e) => e.action.startsWith('plan.')).map((e) => e.target)).toEqual([
      `plan:${unused.json().id}`,
      `plan:${unused.json().id}`,
      `plan:${planId}`,
      `plan:${planId}`,
      `plan:${planId}`,
    ]);
    expect(operators.find((e) => e.action === 'plan.deleted')).toMatchObject({
      actor: SUPER_EMAIL,
      detail: { name: 'Plan Sobrante' },
    });
    expect(first('company.updated')).toMatchObject({
      actor: SUPER_EMAIL,
      target: `company:${admin.companyId}`,
      detail: {
        fields: ['phone', 'status', 'dueDate'],
        status: 'overdue',
        dueDate: '2020-01-31T12:00:00.000Z',
      },
    });
    expect(first('billing.checkout_started')).toMatchObject({
      actor: admin.email,
      detail: { planId, value: 49 },
    });
    // The payment: the subscription made, and the company active again on the plan it paid for.
    const payments = mine.filter((entry) => entry.action === 'billing.subscription_changed');
    expect(payments.length).toBeGreaterThan(0);
    for (const entry of payments)
      expect(entry).toMatchObject({ userId: null, actor: '', address: '' });
    const applied = (event: string) => payments.find((e) => e.detail.event === event)?.detail;
    expect(applied('customer.subscription.created')).toMatchObject({
      company: { planId },
      subscription: { status: 'active', planId },
    });
    expect(applied('checkout.session.completed')).toMatchObject({
      company: { status: 'active', dueDate: expect.any(String) },
    });
    // Newest first.
    const times = mine.map((entry) => Date.parse(String(entry.createdAt)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('shows admins their company’s entries only, filtered, and as CSV', async () => {
    const { company, admin } = await makeCompany(t.db);
    const other = await makeCompany(t.db);
    const session = await login(t.app, admin.email);
    const agent = await makeUser(t.db, company.id, 'user');
    await inject(t.app, session, 'PUT', '/settings/userRating', { value: 'enabled' });
    await inject(t.app, session, 'PUT', `/users/${agent.id}`, { name: 'Otro Nombre' });
    await passwordStep(other.admin.email, 'Wrong1234');

    const all = await entriesOf(session);
    expect(all.every((entry) => entry.companyId === company.id)).toBe(true);
    expect((await entriesOf(session, '?action=setting.updated')).map((e) => e.target)).toEqual([
      'setting:userRating',
    ]);
    expect(
      (await entriesOf(session, `?userId=${admin.id}&action=user.updated`)).map((e) => e.target),
    ).toEqual([`user:${agent.id}`]);
    expect(await entriesOf(session, '?date_from=2000-01-01&date_to=2000-01-02')).toEqual([]);

    const foreign = await inject(t.app, session, 'GET', `/audit?companyId=${other.company.id}`);
    expect(foreign.statusCode).toBe(404);
    const bad = await inject(t.app, session, 'GET', '/audit?action=everything');
    expect(bad.statusCode).toBe(400);
    const agentSession = await login(t.app, agent.email);
    expect((await inject(t.app, agentSession, 'GET', '/audit')).statusCode).toBe(403);
    const root = await login(t.app, SUPER_EMAIL);
    expect(
      (await entriesOf(root, `?companyId=${other.company.id}`)).map((e) => e.action),
    ).toContain('auth.login_failed');

    const csv = await inject(t.app, session, 'GET', '/audit.csv?action=setting.updated');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    // The one dialect of Atendi's CSV: BOM, semicolons, CRLF.
    expect(csv.body.startsWith('\ufeff')).toBe(true);
    const lines = csv.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('createdAt;actor;userId;companyId;action;target;address;detail');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`;${admin.email};${admin.id};${company.id};setting.updated;`);
  });

  it('refuses to change or delete an entry; only the retention prune removes old ones', async () => {
    const { company } = await makeCompany(t.db);
    const [old] = await t.db
      .insert(auditLog)
      .values({
        companyId: company.id,
        action: 'setting.updated',
        createdAt: new Date('2020-01-01'),
      })
      .returning();
    const [recent] = await t.db
      .insert(auditLog)
      .values({ companyId: company.id, action: 'setting.updated' })
      .returning();
    // The database's own refusal (drizzle wraps it as the failed query's cause).
    const refused = async (query: Promise<unknown>) => {
      const error = (await query.then(
        () => undefined,
        (failure: unknown) => failure,
      )) as { message?: string; cause?: { message?: string } } | undefined;
      expect(error?.cause?.message ?? error?.message).toMatch(/append-only/);
    };
    await refused(
      t.db.update(auditLog).set({ action: 'user.deleted' }).where(eq(auditLog.id, old.id)),
    );
    await refused(t.db.delete(auditLog).where(eq(auditLog.id, old.id)));
    expect(await pruneAudit(t.db, new Date(), 0)).toBe(0);
    expect(await pruneAudit(t.db, new Date(), 365)).toBeGreaterThanOrEqual(1);
    const left = await t.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(sql`${auditLog.id} in (${old.id}, ${recent.id})`);
    expect(left.map((row) => row.id)).toEqual([recent.id]);
    // The prune's permission ends with its transaction.
    await refused(t.db.delete(auditLog).where(eq(auditLog.id, recent.id)));
  });
});
