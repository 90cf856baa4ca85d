import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A receiver of Atendi's outbound webhooks for the tests: it checks every request's signature with
// the Standard Webhooks verifier (the `standardwebhooks` package, as a receiver would) and keeps what
// arrived. `answer` decides each response (status, a delay, headers); 200 by default. `hold` keeps
// requests unanswered until `release()`.

type Received = {
  headers: IncomingHttpHeaders;
  body: string;
  // The verifier's verdict with the secret the test set (null before one is set).
  verified: boolean | null;
  payload: {
    type: string;
    timestamp: string;
    companyId: number;
    data: Record<string, Record<string, unknown>>;
  };
};

type Answer = { status?: number; headers?: Record<string, string>; body?: string };

export const startWebhookReceiver = async (host = '127.0.0.1') => {
  const received: Received[] = [];
  const state: {
    secret: string | null;
    answer: (request: Received, index: number) => Answer;
    held: (() => void)[];
    holding: boolean;
  } = { secret: null, answer: () => ({ status: 200 }), held: [], holding: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: boolean | null = null;
      if (state.secret) {
        try {
          new Webhook(state.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const entry: Received = {
        headers: req.headers,
        body,
        verified,
        payload: body ? JSON.parse(body) : null,
      };
      received.push(entry);
      const reply = () => {
        const answer = state.answer(entry, received.length - 1);
        res.writeHead(answer.status ?? 200, {
          'content-type': 'text/plain',
          ...answer.headers,
        });
        res.end(answer.body ?? 'ok');
      };
      if (state.holding) state.held.push(reply);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/hooks`,
    received,
    // The deliveries that arrived, as their event types, in order.
    types: () => received.map((r) => r.payload?.type),
    setSecret: (secret: string) => {
      state.secret = secret;
    },
    answer: (decide: (request: Received, index: number) => Answer) => {
      state.answer = decide;
    },
    hold: () => {
      state.holding = true;
    },
    release: () => {
      state.holding = false;
      for (const reply of state.held.splice(0)) reply();
    },
    close: async () => {
      state.holding = false;
      for (const reply of state.held.splice(0)) reply();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
