import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { settingDefaults, settingKeys, superOnlySettingKeys } from '@atendi/shared';
import { settings } from '../../db/schema';
import {
  SUPER_EMAIL,
  auth,
  sharedTestApp,
  login,
  makeCompany,
  makeUser,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

const list = (session: Session) =>
  t.app.inject({ method: 'GET', url: '/settings', headers: auth(session) });

const put = (session: Session, key: string, value: string) =>
  t.app.inject({
    method: 'PUT',
    url: `/settings/${key}`,
    headers: auth(session),
    payload: { value },
  });

const valueOf = (res: { json: () => { key: string; value: string }[] }, key: string) =>
  res.json().find((s) => s.key === key)?.value;

const storedValue = async (companyId: number, key: string) =>
  (
    await t.db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
  )[0]?.value;

const adminOfNewCompany = async () => {
  const made = await makeCompany(t.db);
  return { ...made, session: await login(t.app, made.admin.email) };
};

// Super-only keys (the payment provider's, super users' two-factor rule) are read by super users alone.
const companyKeys = settingKeys.filter((key) => !superOnlySettingKeys.includes(key));

describe('GET /settings', () => {
  it('lists every company setting with its default', async () => {
    const { session } = await adminOfNewCompany();
    const res = await list(session);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(companyKeys.map((key) => ({ key, value: settingDefaults[key] })));
  });

  it('still lists every key, with defaults, when the company never saved any', async () => {
    const { company, session } = await adminOfNewCompany();
    await t.db.delete(settings).where(eq(settings.companyId, company.id));
    const res = await list(session);
    expect(res.json()).toEqual(companyKeys.map((key) => ({ key, value: settingDefaults[key] })));
  });

  it('any profile of the company may read them', async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id, 'user');
    const res = await list(await login(t.app, agent.email));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(companyKeys.length);
  });

  it("company A never sees company B's values", async () => {
    const a = await adminOfNewCompany();
    const b = await adminOfNewCompany();
    expect((await put(b.session, 'userRating', 'enabled')).statusCode).toBe(200);
    expect((await put(b.session, 'scheduleType', 'company')).statusCode).toBe(200);
    expect(valueOf(await list(a.session), 'userRating')).toBe('disabled');
    expect(valueOf(await list(a.session), 'scheduleType')).toBe('disabled');
    expect(valueOf(await list(b.session), 'userRating')).toBe('enabled');
    expect(await storedValue(a.company.id, 'userRating')).toBe('disabled');
  });
});

describe('PUT /settings/{key}', () => {
  it('an admin saves a setting and it persists', async () => {
    const { company, session } = await adminOfNewCompany();
    const res = await put(session, 'userRating', 'enabled');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: 'userRating', value: 'enabled' });
    expect(await storedValue(company.id, 'userRating')).toBe('enabled');
    expect(valueOf(await list(session), 'userRating')).toBe('enabled');
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(session) });
    expect(me.json().company.settings).toContainEqual({ key: 'userRating', value: 'enabled' });
  });

  it('saves a key the company had no row for', async () => {
    const { company, session } = await adminOfNewCompany();
    await t.db.delete(settings).where(eq(settings.companyId, company.id));
    expect((await put(session, 'initialSideMenu', 'closed')).statusCode).toBe(200);
    expect(await storedValue(company.id, 'initialSideMenu')).toBe('closed');
  });

  it('an unknown key answers 404 ERR_NO_SETTING_FOUND', async () => {
    const { company, session } = await adminOfNewCompany();
    const res = await put(session, 'noSuchSetting', 'enabled');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_SETTING_FOUND');
    expect(await storedValue(company.id, 'noSuchSetting')).toBeUndefined();
  });

  it('a value outside the options answers 400 naming them', async () => {
    const { company, session } = await adminOfNewCompany();
    for (const [key, value] of [
      ['userRating', 'yes'],
      ['scheduleType', 'weekly'],
      ['chatBotType', 'list'],
      ['initialSideMenu', 'enabled'],
    ]) {
      const res = await put(session, key, value);
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'ERR_VALIDATION',
        fields: { value: [expect.stringContaining('One of')] },
      });
    }
    expect(await storedValue(company.id, 'scheduleType')).toBe('disabled');
  });

  it("a 'user' profile cannot change settings (403 ERR_NO_PERMISSION)", async () => {
    const { company } = await makeCompany(t.db);
    const agent = await makeUser(t.db, company.id, 'user');
    const res = await put(await login(t.app, agent.email), 'userRating', 'enabled');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_NO_PERMISSION');
    expect(await storedValue(company.id, 'userRating')).toBe('disabled');
  });

  it('an admin cannot switch campaigns on for their own company; only the company form does', async () => {
    const { company, session } = await adminOfNewCompany();
    const res = await put(session, 'campaignsEnabled', 'true');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_NO_PERMISSION');
    expect(await storedValue(company.id, 'campaignsEnabled')).toBe('false');
    // It stays readable: the drawer shows campaigns from it.
    expect(valueOf(await list(session), 'campaignsEnabled')).toBe('false');
  });
});

describe('the payment-provider key (asaas)', () => {
  it('company staff can neither see nor set it', async () => {
    const { company, session } = await adminOfNewCompany();
    expect(valueOf(await list(session), 'asaas')).toBeUndefined();
    const res = await put(session, 'asaas', 'sk_live_mine');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_NO_PERMISSION');
    expect(await storedValue(company.id, 'asaas')).toBe('');
  });

  it('a super user sets and sees it, but no session carries it', async () => {
    const root = await login(t.app, SUPER_EMAIL);
    const res = await put(root, 'asaas', 'sk_test_platform');
    expect(res.statusCode).toBe(200);
    const listed = await list(root);
    expect(listed.json()).toHaveLength(settingKeys.length);
    expect(valueOf(listed, 'asaas')).toBe('sk_test_platform');
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(root) });
    expect(me.body).not.toContain('sk_test_platform');

    // An admin of the platform company who is not a super user does not see it either.
    const platformAdmin = await makeUser(t.db, root.companyId, 'admin');
    const adminList = await list(await login(t.app, platformAdmin.email));
    expect(valueOf(adminList, 'asaas')).toBeUndefined();
    expect(adminList.body).not.toContain('sk_test_platform');
  });
});
