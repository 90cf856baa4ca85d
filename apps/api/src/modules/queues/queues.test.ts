import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { userQueues } from '../../db/schema';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Method,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let companyId: number;
beforeAll(async () => {
  t = await sharedTestApp();
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  admin = await login(t.app, made.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
});

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

let colors = 0;
const nextColor = () => `#${(0x100000 + (colors += 1)).toString(16)}`;
const createQueue = async (session: Session, body: Record<string, unknown> = {}) =>
  call(session, 'POST', '/queue', { name: `Queue ${(colors += 1)}`, color: nextColor(), ...body });

describe('queues', () => {
  it('creates a queue with the default service hours and lists it in order', async () => {
    const later = await createQueue(admin, { name: 'Soporte', orderQueue: 2 });
    const first = await createQueue(admin, {
      name: 'Ventas',
      orderQueue: 1,
      greetingMessage: 'Hola',
    });
    expect(first.statusCode).toBe(201);
    const queue = first.json();
    expect(queue).toMatchObject({ name: 'Ventas', greetingMessage: 'Hola', orderQueue: 1 });
    const byDay = Object.fromEntries(
      queue.schedules.map((s: { weekdayEn: string; startTime: string; endTime: string }) => [
        s.weekdayEn,
        `${s.startTime}-${s.endTime}`,
      ]),
    );
    expect(byDay).toMatchObject({
      monday: '08:00-18:00',
      saturday: '08:00-12:00',
      sunday: '00:00-00:00',
    });
    const list = (await call(agent, 'GET', '/queue')).json();
    const names = list.map((q: { name: string }) => q.name);
    expect(names.indexOf('Ventas')).toBeLessThan(names.indexOf('Soporte'));
    expect(later.statusCode).toBe(201);
  });

  it('refuses a colour another queue of the company uses, whatever its case or #', async () => {
    const color = nextColor();
    await createQueue(admin, { color });
    const again = await createQueue(admin, { color: color.slice(1).toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS',
      fields: { color: expect.any(Array) },
    });
    // Another company may use the same colour.
    const other = await makeCompany(t.db);
    const theirs = await createQueue(await login(t.app, other.admin.email), { color });
    expect(theirs.statusCode).toBe(201);
  });

  it('refuses a duplicate name and validates name length and colour format', async () => {
    await createQueue(admin, { name: 'Facturación' });
    expect((await createQueue(admin, { name: 'Facturación' })).json().error).toBe(
      'ERR_QUEUE_NAME_ALREADY_EXISTS',
    );
    const bad = await call(admin, 'POST', '/queue', { name: 'X', color: 'red' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['color', 'name']);
    const badHours = await createQueue(admin, {
      schedules: [{ weekday: 'Lunes', weekdayEn: 'monday', startTime: '25:00', endTime: '18:00' }],
    });
    expect(badHours.statusCode).toBe(400);
  });

  it('updates only the fields sent, and a colour change is checked too', async () => {
    const queue = (await createQueue(admin, { greetingMessage: 'Bienvenido' })).json();
    const taken = nextColor();
    await createQueue(admin, { color: taken });
    const res = await call(admin, 'PUT', `/queue/${queue.id}`, { outOfHoursMessage: 'Cerrado' });
    expect(res.json()).toMatchObject({
      greetingMessage: 'Bienvenido',
      outOfHoursMessage: 'Cerrado',
      color: queue.color,
    });
    expect((await call(admin, 'PUT', `/queue/${queue.id}`, { color: taken })).statusCode).toBe(409);
  });

  it('enforces the plan queue limit with a clear error', async () => {
    const limited = await makeCompany(t.db, { planLimits: { queues: 1 } });
    const owner = await login(t.app, limited.admin.email);
    expect((await createQueue(owner)).statusCode).toBe(201);
    const refused = await createQueue(owner);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'ERR_PLAN_LIMIT_QUEUES',
      message: 'The plan allows at most 1 queues',
    });
  });

  it('deleting a queue unlinks its users', async () => {
    const queue = (await createQueue(admin)).json();
    const user = await makeUser(t.db, companyId, 'user');
    await t.db.insert(userQueues).values({ userId: user.id, queueId: queue.id, companyId });
    expect((await call(admin, 'DELETE', `/queue/${queue.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(userQueues).where(eq(userQueues.userId, user.id))).toEqual([]);
    expect((await call(admin, 'GET', `/queue/${queue.id}`)).statusCode).toBe(404);
  });

  it('agents read queues but may not change them', async () => {
    expect((await createQueue(agent)).statusCode).toBe(403);
  });
});

describe('queue options', () => {
  it('builds a tree: top level with parentId -1, children under a parent, ordered by position', async () => {
    const queue = (await createQueue(admin)).json();
    const add = (body: object) =>
      call(admin, 'POST', '/queue-options', { queueId: queue.id, ...body });
    const two = (await add({ title: 'Horarios', option: '2', message: 'Abrimos 9-18' })).json();
    const one = (await add({ title: 'Precios', option: '1' })).json();
    await add({ title: 'Diez', option: '10' });
    const child = (await add({ title: 'Planes', option: '1', parentId: one.id })).json();
    expect(child.parentId).toBe(one.id);

    const top = (await call(agent, 'GET', `/queue-options?queueId=${queue.id}&parentId=-1`)).json();
    expect(top.map((o: { title: string }) => o.title)).toEqual(['Precios', 'Horarios', 'Diez']);
    const children = (
      await call(agent, 'GET', `/queue-options?queueId=${queue.id}&parentId=${one.id}`)
    ).json();
    expect(children.map((o: { id: number }) => o.id)).toEqual([child.id]);
    expect(two.message).toBe('Abrimos 9-18');
  });

  it('deleting an option removes its whole branch', async () => {
    const queue = (await createQueue(admin)).json();
    const add = (body: object) =>
      call(admin, 'POST', '/queue-options', { queueId: queue.id, ...body }).then((r) => r.json());
    const root = await add({ title: 'A', option: '1' });
    const mid = await add({ title: 'B', option: '1', parentId: root.id });
    const leaf = await add({ title: 'C', option: '1', parentId: mid.id });
    const sibling = await add({ title: 'D', option: '2' });
    expect((await call(admin, 'DELETE', `/queue-options/${root.id}`)).statusCode).toBe(204);
    for (const gone of [root, mid, leaf]) {
      expect((await call(admin, 'GET', `/queue-options/${gone.id}`)).statusCode).toBe(404);
    }
    expect((await call(admin, 'GET', `/queue-options/${sibling.id}`)).statusCode).toBe(200);
  });

  it("refuses another company's queue or parent given in the body with 404", async () => {
    const other = await makeCompany(t.db);
    const otherAdmin = await login(t.app, other.admin.email);
    const theirQueue = (await createQueue(otherAdmin)).json();
    const theirOption = (
      await call(otherAdmin, 'POST', '/queue-options', {
        queueId: theirQueue.id,
        title: 'X',
        option: '1',
      })
    ).json();
    const mine = (await createQueue(admin)).json();
    const intoTheirs = await call(admin, 'POST', '/queue-options', {
      queueId: theirQueue.id,
      title: 'X',
      option: '1',
    });
    expect(intoTheirs.statusCode).toBe(404);
    const underTheirs = await call(admin, 'POST', '/queue-options', {
      queueId: mine.id,
      parentId: theirOption.id,
      title: 'X',
      option: '1',
    });
    expect(underTheirs.statusCode).toBe(404);
    expect((await call(admin, 'GET', `/queue-options?queueId=${theirQueue.id}`)).statusCode).toBe(
      404,
    );
  });

  it('refuses a parent from another queue of the same company', async () => {
    const a = (await createQueue(admin)).json();
    const b = (await createQueue(admin)).json();
    const parent = (
      await call(admin, 'POST', '/queue-options', { queueId: a.id, title: 'P', option: '1' })
    ).json();
    const res = await call(admin, 'POST', '/queue-options', {
      queueId: b.id,
      parentId: parent.id,
      title: 'X',
      option: '1',
    });
    expect(res.statusCode).toBe(400);
  });
});
