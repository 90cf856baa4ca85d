import { beforeAll, expect, it } from 'vitest';
import { announcements, helps, queueOptions, queues, quickMessages } from '../src/db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  SUPER_EMAIL,
  type SharedTestContext,
} from './harness';

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

it('a PUT whose body changes nothing answers 200 with the record as it was', async () => {
  const company = await makeCompany(t.db);
  const companyId = company.company.id;
  const admin = await login(t.app, company.admin.email);
  const root = await login(t.app, SUPER_EMAIL);
  const [queue] = await t.db
    .insert(queues)
    .values({ companyId, name: 'Ventas', color: '#00aa00' })
    .returning();
  const [option] = await t.db
    .insert(queueOptions)
    .values({ companyId, queueId: queue.id, title: 'Precios', option: '1' })
    .returning();
  const [quick] = await t.db
    .insert(quickMessages)
    .values({ companyId, shortcode: 'hola', message: 'Hola!', geral: true })
    .returning();
  const [help] = await t.db.insert(helps).values({ title: 'Primeros pasos' }).returning();
  const [notice] = await t.db
    .insert(announcements)
    .values({ companyId: root.companyId, title: 'Aviso', text: 'Mantenimiento' })
    .returning();
  const plan = (await inject(t.app, root, 'GET', '/plans/all')).json()[0] as { id: number };

  const cases = [
    { session: admin, url: `/queue/${queue.id}`, field: 'name', value: 'Ventas' },
    { session: admin, url: `/queue-options/${option.id}`, field: 'title', value: 'Precios' },
    { session: admin, url: `/quick-messages/${quick.id}`, field: 'shortcode', value: 'hola' },
    { session: root, url: `/helps/${help.id}`, field: 'title', value: 'Primeros pasos' },
    { session: root, url: `/announcements/${notice.id}`, field: 'title', value: 'Aviso' },
    { session: root, url: `/plans/${plan.id}`, field: 'id', value: plan.id },
  ];
  for (const { session, url, field, value } of cases) {
    const res = await inject(t.app, session, 'PUT', url, {});
    expect(res.statusCode, `${url} → ${res.body}`).toBe(200);
    expect(res.json()[field], url).toEqual(value);
  }
});
