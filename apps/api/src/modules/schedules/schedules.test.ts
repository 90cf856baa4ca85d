import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { ScheduleView } from '@atendi/shared';
import { messages, simulatorMessages, tickets } from '../../db/schema';
import {
  createTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  travel,
  type Method,
  type Session,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { inbound, outbound, pairedSimulator, ticketOf } from '../../../test/inbox';
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';
import { SCHEDULES_JOB } from './schedules.sender';

let t: TestContext;
let admin: Session;
let agent: Session;
let outsider: Session;
let companyId: number;
let phone = 5491170000000;
const nextPhone = () => String((phone += 1));

const MINUTE = 60_000;
const inAnHour = () => new Date(Date.now() + 60 * MINUTE).toISOString();

beforeAll(async () => {
  t = await createTestApp({ TIME_ZONE: 'America/Bogota', SCHEDULES_INTERVAL: '0' });
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  admin = await login(t.app, made.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  outsider = await login(t.app, (await makeCompany(t.db)).admin.email);
});
afterAll(async () => {
  closeSockets();
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const makeContact = async (session: Session, name = 'María López', number = nextPhone()) => {
  const res = await call(session, 'POST', '/contacts', { name, number });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; number: string };
};

const schedule = async (session: Session, body: Record<string, unknown>) => {
  const res = await call(session, 'POST', '/schedules', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ScheduleView;
};

const runJob = () => t.app.deps.jobs.run(SCHEDULES_JOB);
const read = async (session: Session, id: number) =>
  (await call(session, 'GET', `/schedules/${id}`)).json() as ScheduleView;

const multipart = (filename: string, content: Buffer) => {
  const boundary = '----atendi-schedule-boundary';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const upload = (session: Session, id: number, filename: string) => {
  const form = multipart(filename, png);
  return t.app.inject({
    method: 'POST',
    url: `/schedules/${id}/media-upload`,
    headers: { authorization: `Bearer ${session.token}`, ...form.headers },
    payload: form.payload,
  });
};

describe('schedules API', () => {
  it('creates, reads, lists, edits and deletes a schedule for the caller by default', async () => {
    const contact = await makeContact(admin, 'Lucía Gómez');
    const sendAt = inAnHour();
    const created = await schedule(agent, {
      body: 'Recordatorio de su cita',
      contactId: contact.id,
      sendAt,
    });
    expect(created).toMatchObject({
      body: 'Recordatorio de su cita',
      contactId: contact.id,
      contact: { id: contact.id, name: 'Lucía Gómez' },
      sendAt,
      sentAt: null,
      status: 'PENDENTE',
      userId: agent.userId,
      mediaName: null,
      mediaUrl: null,
    });
    // Everyone in the company sees and manages it.
    expect(await read(admin, created.id)).toMatchObject({ id: created.id, body: created.body });

    const byContact = (await call(admin, 'GET', `/schedules?contactId=${contact.id}`)).json();
    expect(byContact).toMatchObject({ count: 1, hasMore: false });
    expect(byContact.schedules.map((s: ScheduleView) => s.id)).toEqual([created.id]);
    const searched = (await call(admin, 'GET', '/schedules?searchParam=lucía&pageNumber=1')).json();
    expect(searched.schedules.map((s: ScheduleView) => s.id)).toContain(created.id);
    const missed = (await call(admin, 'GET', '/schedules?searchParam=nadie-asi')).json();
    expect(missed).toMatchObject({ schedules: [], count: 0, hasMore: false });

    const later = new Date(Date.now() + 2 * 60 * MINUTE).toISOString();
    const edited = await call(admin, 'PUT', `/schedules/${created.id}`, {
      body: 'Su cita cambió de hora',
      sendAt: later,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ body: 'Su cita cambió de hora', sendAt: later });

    expect((await call(agent, 'DELETE', `/schedules/${created.id}`)).statusCode).toBe(204);
    expect((await call(agent, 'GET', `/schedules/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses a past send time, a short text and users or contacts of another company', async () => {
    const contact = await makeContact(admin);
    const past = await call(admin, 'POST', '/schedules', {
      body: 'Hola, buenos días',
      contactId: contact.id,
      sendAt: new Date(Date.now() - MINUTE).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { sendAt: [expect.any(String)] },
    });

    const short = await call(admin, 'POST', '/schedules', {
      body: 'Hola',
      contactId: contact.id,
      sendAt: inAnHour(),
    });
    expect(short.statusCode).toBe(400);
    expect(Object.keys(short.json().fields)).toEqual(['body']);

    const notADate = await call(admin, 'POST', '/schedules', {
      body: 'Hola, buenos días',
      contactId: contact.id,
      sendAt: 'mañana',
    });
    expect(notADate.statusCode).toBe(400);

    const foreignContact = await makeContact(outsider);
    const strange = await call(admin, 'POST', '/schedules', {
      body: 'Hola, buenos días',
      contactId: foreignContact.id,
      sendAt: inAnHour(),
    });
    expect(strange.statusCode).toBe(404);
    expect(strange.json().error).toBe('ERR_NO_CONTACT_FOUND');

    const foreignUser = await call(admin, 'POST', '/schedules', {
      body: 'Hola, buenos días',
      contactId: contact.id,
      sendAt: inAnHour(),
      userId: outsider.userId,
    });
    expect(foreignUser.statusCode).toBe(400);
    expect(foreignUser.json().fields).toHaveProperty('userId');
  });

  it("hides another company's schedules: 404 on every route and absent from lists", async () => {
    const mine = await schedule(admin, {
      body: 'Solo para esta empresa',
      contactId: (await makeContact(admin)).id,
      sendAt: inAnHour(),
    });
    for (const [method, url, payload] of [
      ['GET', `/schedules/${mine.id}`, undefined],
      ['PUT', `/schedules/${mine.id}`, { body: 'Cambiado por otro' }],
      ['DELETE', `/schedules/${mine.id}`, undefined],
      ['DELETE', `/schedules/${mine.id}/media-upload`, undefined],
    ] as const) {
      const res = await call(outsider, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await upload(outsider, mine.id, 'foto.png')).statusCode).toBe(404);
    const theirs = (await call(outsider, 'GET', `/schedules?contactId=${mine.contactId}`)).json();
    expect(theirs.schedules).toEqual([]);
    expect((await read(admin, mine.id)).body).toBe('Solo para esta empresa');
  });

  it("is refused when the company's plan has no schedules", async () => {
    const made = await makeCompany(t.db, { planLimits: { useSchedules: false } });
    const session = await login(t.app, made.admin.email);
    const res = await call(session, 'GET', '/schedules');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });

  it('tells every user of the company, and nobody else, on company-{id}-schedule', async () => {
    const colleague = await listenAs(t.app, agent);
    const stranger = await listenAs(t.app, outsider);
    const created = await schedule(admin, {
      body: 'Aviso en vivo',
      contactId: (await makeContact(admin)).id,
      sendAt: inAnHour(),
    });
    await call(admin, 'PUT', `/schedules/${created.id}`, { body: 'Aviso en vivo, editado' });
    await call(admin, 'DELETE', `/schedules/${created.id}`);

    const events = await eventually(
      async () => colleague.filter((h) => h.event === `company-${companyId}-schedule`),
      (list) => list.length >= 3,
      'schedule events',
    );
    expect(events.map((e) => e.payload.action)).toEqual(['create', 'update', 'delete']);
    expect(events[0].payload.schedule).toMatchObject({ id: created.id, body: 'Aviso en vivo' });
    expect(events[1].payload.schedule).toMatchObject({ body: 'Aviso en vivo, editado' });
    expect(events[2].payload).toEqual({ action: 'delete', scheduleId: created.id });
    // Barrier: the server's answer on the stranger's socket comes after anything emitted to it.
    await caughtUp(stranger);
    expect(stranger.filter((h) => h.event.endsWith('-schedule'))).toEqual([]);
  });
});

describe('sending job', () => {
  let connectionId: number;
  beforeAll(async () => {
    connectionId = (await pairedSimulator(t.app, admin, {})).id;
  });

  const sentTo = async (to: string) =>
    (await outbound(t.app, admin, connectionId)).filter((m) => m.to === to);

  it('sends a due schedule once, with its variables filled, in a new conversation of its user', async () => {
    const contact = await makeContact(admin, 'Carla Ruiz');
    const created = await schedule(agent, {
      body: 'Hola {{firstName}}, le recordamos su cita de mañana.',
      contactId: contact.id,
      sendAt: new Date(Date.now() + 10 * MINUTE).toISOString(),
    });

    // Not yet due: nothing happens.
    await runJob();
    expect((await read(admin, created.id)).status).toBe('PENDENTE');

    travel(11 * MINUTE);
    await runJob();
    await runJob();
    const sent = await eventually(
      () => sentTo(contact.number),
      (l) => l.length >= 1,
      'sent',
    );
    expect(sent.map((m) => m.body)).toEqual(['Hola Carla, le recordamos su cita de mañana.']);

    const after = await read(admin, created.id);
    expect(after).toMatchObject({ status: 'ENVIADA', sentAt: expect.any(String) });
    const ticket = await ticketOf(t.db, companyId, contact.number);
    expect(ticket).toMatchObject({
      id: after.ticketId,
      status: 'open',
      userId: agent.userId,
      whatsappId: connectionId,
    });
    const stored = await t.db.select().from(messages).where(eq(messages.ticketId, ticket!.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ fromMe: true, scheduled: true });

    // A sent schedule is history.
    const edit = await call(admin, 'PUT', `/schedules/${created.id}`, {
      body: 'Otro texto distinto',
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error).toBe('ERR_SCHEDULE_SENT');
    expect((await upload(admin, created.id, 'foto.png')).statusCode).toBe(409);

    await runJob();
    // Barrier: the outbox sends in queue order, so this message goes out after anything the run queued.
    const later = await call(agent, 'POST', `/messages/${ticket!.id}`, { body: 'Después del job' });
    expect(later.statusCode, later.body).toBe(201);
    const all = await eventually(
      () => sentTo(contact.number),
      (l) => l.some((m) => m.body === 'Después del job'),
      'the message sent after the job',
    );
    expect(all.map((m) => m.body)).toEqual([
      'Hola Carla, le recordamos su cita de mañana.',
      'Después del job',
    ]);
  });

  it("lands in the contact's open conversation, with its attachment", async () => {
    const number = nextPhone();
    await inbound(t.app, admin, connectionId, { from: number, body: 'hola', name: 'Pedro' });
    const waiting = await eventually(() => ticketOf(t.db, companyId, number), Boolean, 'ticket');
    const created = await schedule(admin, {
      body: 'Le enviamos su factura',
      contactId: waiting!.contactId,
      sendAt: new Date(Date.now() + MINUTE).toISOString(),
    });
    const uploaded = await upload(admin, created.id, 'factura.png');
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toMatchObject({
      mediaName: 'factura.png',
      mediaUrl: expect.any(String),
    });

    travel(2 * MINUTE);
    await runJob();
    const sent = await eventually(
      () => sentTo(number),
      (l) => l.length >= 1,
      'sent',
    );
    expect(sent).toMatchObject([
      { body: 'Le enviamos su factura', mediaType: 'image', fileName: 'factura.png' },
    ]);
    const rows = await t.db.select().from(tickets).where(eq(tickets.contactId, waiting!.contactId));
    expect(rows.map((r) => r.id)).toEqual([waiting!.id]);
    expect((await read(admin, created.id)).ticketId).toBe(waiting!.id);

    // The message keeps its own copy of the file when the schedule goes.
    const [message] = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, waiting!.id), eq(messages.fromMe, true)));
    expect((await call(admin, 'DELETE', `/schedules/${created.id}`)).statusCode).toBe(204);
    expect(
      existsSync(path.join(t.config.dataDir, 'uploads', String(companyId), message.mediaUrl!)),
    ).toBe(true);
  });

  it('records a schedule that has no connection to go through, and tries no more until edited', async () => {
    const made = await makeCompany(t.db);
    const session = await login(t.app, made.admin.email);
    const contact = await makeContact(session);
    const created = await schedule(session, {
      body: 'Sin conexión disponible',
      contactId: contact.id,
      sendAt: new Date(Date.now() + MINUTE).toISOString(),
    });
    travel(2 * MINUTE);
    await runJob();
    expect(await read(session, created.id)).toMatchObject({ status: 'ERRO', sentAt: null });
    await runJob();
    expect((await read(session, created.id)).status).toBe('ERRO');

    const retried = await call(session, 'PUT', `/schedules/${created.id}`, {
      sendAt: new Date(Date.now() + 60 * MINUTE).toISOString(),
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().status).toBe('PENDENTE');
  });
});

describe('after a restart', () => {
  it('sends exactly once what fell due while the server was down', async () => {
    const restarted = await createTestApp({ SCHEDULES_INTERVAL: '3600' });
    try {
      const made = await makeCompany(restarted.db);
      const session = await login(restarted.app, made.admin.email);
      const connection = await pairedSimulator(restarted.app, session, {});
      const number = nextPhone();
      const contact = (
        await inject(restarted.app, session, 'POST', '/contacts', { name: 'Rosa', number })
      ).json();
      const created = await inject(restarted.app, session, 'POST', '/schedules', {
        body: 'Buenos días {{name}}',
        contactId: contact.id,
        sendAt: new Date(Date.now() + 10 * MINUTE).toISOString(),
      });
      expect(created.statusCode, created.body).toBe(201);

      // Down for an hour: the first run after start sends it, without anyone calling the job.
      travel(60 * MINUTE);
      await restarted.restart();
      const received = () =>
        restarted.db
          .select()
          .from(simulatorMessages)
          .where(
            and(eq(simulatorMessages.whatsappId, connection.id), eq(simulatorMessages.to, number)),
          );
      const sent = await eventually(received, (rows) => rows.length >= 1, 'sent after restart');
      expect(sent.map((m) => m.body)).toEqual(['Buenos días Rosa']);

      await restarted.app.deps.jobs.run(SCHEDULES_JOB);
      await restarted.restart();
      await restarted.app.deps.jobs.run(SCHEDULES_JOB);
      const ticket = await ticketOf(restarted.db, made.company.id, number);
      expect(ticket).toMatchObject({ status: 'open', userId: made.admin.id });
      // Barrier: the outbox sends in queue order, so this message goes out after anything the runs
      // queued. (A new login: the clock moved past the first session's access token.)
      const again = await login(restarted.app, made.admin.email);
      const later = await inject(restarted.app, again, 'POST', `/messages/${ticket!.id}`, {
        body: 'Después de reiniciar',
      });
      expect(later.statusCode, later.body).toBe(201);
      const all = await eventually(
        received,
        (rows) => rows.some((m) => m.body === 'Después de reiniciar'),
        'the message sent after the runs',
      );
      expect(all.map((m) => m.body)).toEqual(['Buenos días Rosa', 'Después de reiniciar']);
    } finally {
      vi.useRealTimers();
      await restarted.close();
    }
  });
});
