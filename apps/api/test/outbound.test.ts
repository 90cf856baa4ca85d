import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiProviders } from '../src/db/schema';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  type Session,
  type TestContext,
} from './harness';

// Company-supplied URLs on an API run as the product ships (OUTBOUND_ALLOW_PRIVATE unset): none may
// point the server at its own networks, neither when saved nor when called.

let t: TestContext;
let admin: Session;
let companyId: number;
let fake: FakeOpenAi;

const PRIVATE = [
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://127.0.0.1:6379/',
  'http://[::1]/',
  'http://0.0.0.0/',
  'http://2130706433/',
  'http://localhost:5432/',
];

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: '' });
  const company = await makeCompany(t.db);
  companyId = company.company.id;
  admin = await login(t.app, company.admin.email);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const refused = (res: { statusCode: number; json: () => unknown }, field: string) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({
    error: 'ERR_OUTBOUND_URL_NOT_ALLOWED',
    fields: { [field]: [expect.any(String)] },
  });
};

describe('company-supplied URLs when saved', () => {
  it.each(PRIVATE)('an integration at %s is refused with a field error', async (url) => {
    for (const type of ['webhook', 'n8n', 'typebot'] as const) {
      const res = await inject(t.app, admin, 'POST', '/queueIntegration', {
        name: `Flujo ${type} ${PRIVATE.indexOf(url)}`,
        type,
        urlN8N: url,
        ...(type === 'typebot' ? { typebotSlug: 'bot' } : {}),
      });
      refused(res, 'urlN8N');
    }
  });

  it('a Cloud API base URL on a private network or of another scheme is refused', async () => {
    for (const url of [...PRIVATE, 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO']) {
      const res = await inject(t.app, admin, 'POST', '/whatsapp', {
        name: `Cloud ${url.length}`,
        provider: 'cloud',
        cloudPhoneNumberId: '1234567890',
        cloudAccessToken: 'EAAG-token',
        cloudAppSecret: 'app-secret',
        cloudVerifyToken: 'verify',
        cloudApiBaseUrl: url,
      });
      if (res.statusCode === 400 && res.json<{ error: string }>().error === 'ERR_VALIDATION')
        // The schema already refuses what is not a URL at all.
        continue;
      refused(res, 'cloudApiBaseUrl');
    }
  });

  it('an AI provider address on a private network is refused, saved or only tested', async () => {
    for (const url of PRIVATE) {
      refused(await inject(t.app, admin, 'PUT', '/ai-provider', { baseUrl: url }), 'baseUrl');
      refused(await inject(t.app, admin, 'POST', '/ai-provider/test', { baseUrl: url }), 'baseUrl');
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('company-supplied URLs when called', () => {
  it('an AI provider address that is private by now is never called, and nothing of it is echoed', async () => {
    // As a name that resolved elsewhere when it was saved would be now.
    await t.db.insert(aiProviders).values({ companyId, baseUrl: fake.url });
    const res = await inject(t.app, admin, 'GET', '/ai-provider/models');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_OUTBOUND_URL_NOT_ALLOWED' });
    expect(fake.requests).toHaveLength(0);
  });
});
