import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { contacts, queues, tickets, userQueues, users } from '../../db/schema';
import {
  createTestApp,
  login,
  makeCompany,
  makeUser,
  makeWhatsapp,
  type TestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { closeSockets, openSocket } from '../../../test/sockets';

// A routing pass never waits for a ticket another transaction holds (an inbound batch storing its
// messages locks tickets in another order: waiting could deadlock): it assigns the others, and the held
// one as soon as it is let go.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  closeSockets();
  await t.close();
});

describe('a routing pass and tickets held elsewhere', () => {
  it('assigns the free tickets at once and the held one when it is let go', async () => {
    const { company } = await makeCompany(t.db);
    const companyId = company.id;
    const connection = await makeWhatsapp(t.db, companyId);
    const [queue] = await t.db
      .insert(queues)
      .values({ companyId, name: 'Soporte', color: '#101010', routing: 'round_robin' })
      .returning();
    const waiting = [];
    for (let i = 0; i < 3; i++) {
      const [contact] = await t.db
        .insert(contacts)
        .values({ companyId, name: `Cliente ${i}`, number: `54911500000${i}` })
        .returning();
      const [ticket] = await t.db
        .insert(tickets)
        .values({ companyId, contactId: contact.id, whatsappId: connection.id, queueId: queue.id })
        .returning();
      waiting.push(ticket);
    }
    const agent = await makeUser(t.db, companyId, 'user');
    await t.db.insert(userQueues).values({ userId: agent.id, queueId: queue.id, companyId });

    // Another transaction holds the oldest waiting ticket.
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from tickets where id = $1 for update', [waiting[0].id]);

      // The agent comes online: a pass runs.
      await openSocket(t.app, await login(t.app, agent.email));
      const assigned = () =>
        t.db
          .select({ id: tickets.id, userId: tickets.userId })
          .from(tickets)
          .where(eq(tickets.companyId, companyId))
          .orderBy(tickets.id);
      await eventually(
        assigned,
        (rows) => rows[1].userId !== null && rows[2].userId !== null,
        'the free ones',
      );
      expect((await assigned())[0].userId).toBeNull();

      await holder.query('commit');
      await eventually(
        assigned,
        (rows) => rows[0].userId === agent.id,
        'the held one, once let go',
      );
      const [row] = await t.db.select().from(users).where(eq(users.id, agent.id));
      expect(row.presence).toBe('online');
    } finally {
      await holder.end();
    }
  });
});
