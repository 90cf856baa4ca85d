import { beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionHistory } from '@atendi/shared';
import {
  inject,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  sharedTestApp,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { pairedSimulator } from '../../../test/inbox';
import { connectionHistory } from '../../db/schema';
import { isDrop, watchStuckConnections } from './connection-health';

// A number's health (issue 39): every status change of a connection is kept with why; a number that
// was working and dropped emails the company's admins, once an hour a connection at most.

let t: SharedTestContext;
beforeAll(async () => {
  t = await sharedTestApp();
});

const historyOf = async (session: Session, id: number) => {
  const res = await inject(t.app, session, 'GET', `/whatsapp/${id}/history`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ConnectionHistory).entries;
};

const mailsTo = (email: string) => t.mail.filter((mail) => mail.to === email);

describe('connection health', () => {
  it('keeps every status change with why, and tells the admins when a number drops', async () => {
    const { company, admin } = await makeCompany(t.db);
    const second = await makeUser(t.db, company.id, 'admin');
    const agent = await makeUser(t.db, company.id, 'user');
    const session = await login(t.app, admin.email);
    const connection = await pairedSimulator(t.app, session, { name: 'Ventas' });
    await eventually(
      () => historyOf(session, connection.id),
      (entries) => entries[0]?.status === 'CONNECTED',
      'connected',
    );

    // The phone unlinks it.
    const unlinked = await inject(t.app, session, 'POST', `/simulator/${connection.id}/disconnect`);
    expect(unlinked.statusCode, unlinked.body).toBeLessThan(300);
    const entries = await eventually(
      () => historyOf(session, connection.id),
      (list) => list[0]?.status === 'DISCONNECTED',
      'the drop recorded',
    );
    expect(entries[0]).toMatchObject({
      status: 'DISCONNECTED',
      previous: 'CONNECTED',
      cause: 'logged_out',
      detail: 'unlinked from the phone',
    });
    // Oldest last: made disconnected, then opening, the QR, connected.
    expect(entries.map((e) => e.status).reverse()).toEqual([
      'DISCONNECTED',
      'OPENING',
      'qrcode',
      'CONNECTED',
      'DISCONNECTED',
    ]);
    expect(entries.at(-1)).toMatchObject({ previous: null, cause: null });

    await eventually(
      () => [mailsTo(admin.email).length, mailsTo(second.email).length],
      ([a, b]) => a === 1 && b === 1,
      'both admins emailed',
    );
    const [mail] = mailsTo(admin.email);
    expect(mail.subject).toBe(
      'Conexión desconectada: Ventas / Connection disconnected / Conexão desconectada',
    );
    expect(mail.text).toContain('escanear un código QR nuevo');
    expect(mail.text).toContain('a new QR code must be scanned');
    expect(mail.text).toContain('é preciso escanear um novo QR code');
    expect(mailsTo(agent.email)).toEqual([]);

    // Paired again and dropped again within the hour: recorded, not emailed again.
    await inject(t.app, session, 'POST', `/whatsappsession/${connection.id}`);
    await eventually(
      async () =>
        (await inject(t.app, session, 'POST', `/simulator/${connection.id}/scan`)).statusCode,
      (status) => status === 200,
      'scanned again',
    );
    await eventually(
      () => historyOf(session, connection.id),
      (list) => list[0]?.status === 'CONNECTED',
      'connected again',
    );
    await inject(t.app, session, 'POST', `/simulator/${connection.id}/disconnect`);
    await eventually(
      () => historyOf(session, connection.id),
      (list) => list[0]?.status === 'DISCONNECTED',
      'the second drop recorded',
    );
    expect(mailsTo(admin.email)).toHaveLength(1);

    // Another company sees nothing of it; agents do not read it.
    const other = await makeCompany(t.db);
    const stranger = await login(t.app, other.admin.email);
    expect(
      (await inject(t.app, stranger, 'GET', `/whatsapp/${connection.id}/history`)).statusCode,
    ).toBe(404);
    const agentSession = await login(t.app, agent.email);
    expect(
      (await inject(t.app, agentSession, 'GET', `/whatsapp/${connection.id}/history`)).statusCode,
    ).toBe(403);
  });

  it('tells the admins of a number that keeps reconnecting, once an hour', async () => {
    const { company, admin } = await makeCompany(t.db);
    const stuck = await makeWhatsapp(t.db, company.id, { name: 'Soporte', status: 'TIMEOUT' });
    const fresh = await makeWhatsapp(t.db, company.id, { name: 'Pagos', status: 'TIMEOUT' });
    const now = new Date();
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    await t.db.insert(connectionHistory).values([
      {
        companyId: company.id,
        whatsappId: stuck.id,
        status: 'CONNECTED',
        createdAt: minutesAgo(60),
      },
      {
        companyId: company.id,
        whatsappId: stuck.id,
        status: 'TIMEOUT',
        previous: 'CONNECTED',
        cause: 'network',
        createdAt: minutesAgo(11),
      },
      {
        companyId: company.id,
        whatsappId: fresh.id,
        status: 'TIMEOUT',
        previous: 'CONNECTED',
        cause: 'network',
        createdAt: minutesAgo(3),
      },
    ]);
    await watchStuckConnections(t.app.deps, t.app.log, now);
    expect(mailsTo(admin.email).map((mail) => mail.subject)).toEqual([
      'Conexión con problemas: Soporte / Connection in trouble / Conexão com problemas',
    ]);
    expect(mailsTo(admin.email)[0].text).toContain('más de 10 minutos');
    expect(mailsTo(admin.email)[0].text).toContain('há mais de 10 minutos');
    // Eight minutes later, still stuck: no second email within the hour; the other one is stuck now.
    await watchStuckConnections(t.app.deps, t.app.log, new Date(now.getTime() + 8 * 60_000));
    expect(mailsTo(admin.email).map((mail) => mail.subject)).toEqual([
      'Conexión con problemas: Soporte / Connection in trouble / Conexão com problemas',
      'Conexión con problemas: Pagos / Connection in trouble / Conexão com problemas',
    ]);
  });

  it('calls only a working number ended by WhatsApp or the provider a drop', () => {
    expect(isDrop({ before: 'CONNECTED', after: 'DISCONNECTED', cause: 'logged_out' })).toBe(true);
    expect(isDrop({ before: 'TIMEOUT', after: 'DISCONNECTED', cause: 'replaced' })).toBe(true);
    expect(isDrop({ before: 'OPENING', after: 'DISCONNECTED', cause: 'unauthorized' })).toBe(true);
    // A person pressed "disconnect".
    expect(isDrop({ before: 'CONNECTED', after: 'DISCONNECTED', cause: null })).toBe(false);
    // Nobody scanned the QR.
    expect(isDrop({ before: 'qrcode', after: 'DISCONNECTED', cause: 'qr_timeout' })).toBe(false);
    // Reconnecting is not a drop yet.
    expect(isDrop({ before: 'CONNECTED', after: 'TIMEOUT', cause: 'network' })).toBe(false);
  });
});
