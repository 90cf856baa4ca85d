import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually';
import { openProcessDatabase, PROCESS_WAIT, startApiProcess, type ApiProcess } from './api-process';
import { signPayload, startFakeGraph, webhookBody, type FakeGraph } from './fake-graph';

// Meta redelivers a webhook it got no 200 for, and may deliver one twice. Here every webhook is sent
// twice, by two senders side by side, to two API nodes behind one address (each webhook to either),
// and one node is killed with -9 and started again meanwhile: each message is stored exactly once,
// and each conversation's messages in the order they were written, though both nodes process them.

const PASSWORD = 'Secret123';
const EMAIL = 'webhooks-crash@test.local';
const PHONE_NUMBER_ID = '1099887766';
const APP_SECRET = 'crash-app-secret';
const secrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
};
const CONTACTS = 50;
const PER_CONTACT = 40;

let database: Awaited<ReturnType<typeof openProcessDatabase>>;
let graph: FakeGraph;

const startApi = async (token?: string) => {
  const api = await startApiProcess({
    token,
    databaseUrl: database.url,
    dataDir: database.dataDir,
    email: EMAIL,
    password: PASSWORD,
    secrets,
    env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' },
  });
  database.children.push(api.child);
  return api;
};

// Contact c's message i, as Meta posts it: one entry, one change, one message.
const webhook = (contact: number, i: number) => {
  const from = `5491177${String(contact).padStart(4, '0')}`;
  const body = Buffer.from(
    JSON.stringify(
      webhookBody({
        phoneNumberId: PHONE_NUMBER_ID,
        value: {
          contacts: [{ profile: { name: `Cliente ${contact}` }, wa_id: from }],
          messages: [
            {
              from,
              id: `wamid.crash-${contact}-${i}`,
              timestamp: String(1_790_000_000 + i),
              type: 'text',
              text: { body: `${contact}-${i}` },
            },
          ],
        },
      }),
    ),
  );
  return { body, signature: signPayload(body, APP_SECRET) };
};

beforeAll(async () => {
  database = await openProcessDatabase('atendi_webhooks_crash');
  graph = await startFakeGraph();
});
afterAll(async () => {
  await database?.close();
  await graph?.close();
});

describe('Cloud API webhooks through a kill -9', () => {
  it(
    'stores every message of webhooks sent twice exactly once, in order per conversation',
    { timeout: 240_000 },
    async () => {
      const nodes: ApiProcess[] = [await startApi()];
      nodes.push(await startApi(nodes[0].token));
      const [api] = nodes;
      graph.addPhoneNumber(PHONE_NUMBER_ID, '+1 555-010-2030', 'Crash');
      const created = await api.call('POST', '/whatsapp', {
        name: 'Cloud',
        provider: 'cloud',
        cloudPhoneNumberId: PHONE_NUMBER_ID,
        cloudAccessToken: 'fake-graph-token',
        cloudAppSecret: APP_SECRET,
        cloudVerifyToken: 'crash-verify-token',
        cloudApiBaseUrl: graph.url,
      });
      expect(created.ok).toBe(true);
      const { id: connectionId } = (await created.json()) as { id: number };

      // Each sender writes every contact's messages in order, the next once Meta would have had its
      // 200, each to either node (as a load balancer would); a webhook that gets no 200 (its node
      // is down) is sent again, as Meta does.
      let answered = 0;
      let restarted: Promise<void> | null = null;
      let sent = 0;
      const post = async (contact: number, i: number) => {
        const { body, signature } = webhook(contact, i);
        for (;;) {
          sent += 1;
          const node = nodes[sent % 2];
          const status = await fetch(`${node.base}/webhooks/whatsapp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
            body,
          }).then(
            (res) => res.status,
            () => 0,
          );
          if (status === 200) break;
          expect(status).toBe(0);
        }
        answered += 1;
        // A third of the way in, node 0 dies mid-burst; it is started again while the burst goes on.
        if (answered === Math.floor((2 * CONTACTS * PER_CONTACT) / 3) && !restarted) {
          nodes[0].child.kill('SIGKILL');
          restarted = startApi(nodes[1].token).then((next) => {
            nodes[0] = next;
          });
        }
      };
      const sender = () =>
        Promise.all(
          Array.from({ length: CONTACTS }, async (_, contact) => {
            for (let i = 0; i < PER_CONTACT; i += 1) await post(contact, i);
          }),
        );
      await Promise.all([sender(), sender()]);
      expect(restarted).not.toBeNull();
      await restarted;

      const { db } = database;
      const total = CONTACTS * PER_CONTACT;
      const { rows } = await eventually(
        () =>
          db.query<{ body: string; contact_id: number }>(
            'select body, contact_id from messages where whatsapp_id = $1 order by id',
            [connectionId],
          ),
        (result) => result.rows.length >= total,
        'every message stored',
        PROCESS_WAIT,
      );
      // Exactly once each.
      expect(rows).toHaveLength(total);
      expect(new Set(rows.map((r) => r.body)).size).toBe(total);
      // Each contact's messages in the order written, in one conversation.
      const byContact = new Map<string, number[]>();
      for (const { body } of rows) {
        const [contact, i] = body.split('-');
        byContact.set(contact, [...(byContact.get(contact) ?? []), Number(i)]);
      }
      expect(byContact.size).toBe(CONTACTS);
      for (const order of byContact.values())
        expect(order).toEqual(Array.from({ length: PER_CONTACT }, (_, i) => i));
      const { rows: tickets } = await db.query<{ count: number }>(
        'select count(*)::int as count from tickets where whatsapp_id = $1',
        [connectionId],
      );
      expect(tickets[0].count).toBe(CONTACTS);
      // Nothing left waiting or failed.
      const { rows: jobs } = await eventually(
        () =>
          db.query<{ status: string }>(
            "select status from jobs where queue = 'cloud.webhook' and status <> 'done'",
          ),
        (result) => result.rows.length === 0,
        'every webhook job done',
        PROCESS_WAIT,
      );
      expect(jobs).toEqual([]);
    },
  );
});
