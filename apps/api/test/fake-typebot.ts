import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for a Typebot server (the machines running tests have no internet). It speaks the
// public chat API the product calls, in Typebot's wire format (docs.typebot.io, API > Chat):
//   POST /api/v1/typebots/{publicId}/startChat      { prefilledVariables?, textBubbleContentFormat? }
//   POST /api/v1/sessions/{sessionId}/continueChat  { message: string | { type: 'text', text } }
// answering { sessionId?, messages: [bubbles], input? } with rich-text (Slate) bubbles, and runs small
// scripted flows: steps of bubbles waiting on a choice or a text answer, `{{variable}}` filled from
// prefilled variables and answers. A wrong choice gets Typebot's retry bubble and the same input. It
// also serves media files (GET /media/{name}) for image bubbles, records every request and fails on
// demand.

export type FakeTypebotStep = {
  id: string;
  // Text bubbles ("**bold**" becomes a bold leaf; {{name}} a variable) or images by file name.
  say: (string | { image: string })[];
  choices?: { label: string; next: string }[];
  ask?: { variable: string; next: string };
  // Neither choices nor ask: the flow ends after this step's bubbles.
};

export type FakeTypebotRequest = { path: string; body: unknown };

export type FakeTypebot = {
  url: string;
  requests: FakeTypebotRequest[];
  // Publishes a flow under a public id; its first step starts every chat.
  publish: (slug: string, steps: FakeTypebotStep[]) => void;
  // The next `times` chat calls answer this HTTP status, or never answer ('hang').
  fail: (times: number, status: number | 'hang') => void;
  // Typebot forgets every session (as when its own session expiry runs out).
  forgetSessions: () => void;
  sessions: () => number;
  close: () => Promise<void>;
};

// A 1×1 PNG, served for image bubbles.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type Session = { slug: string; step: string; variables: Record<string, string> };

const fill = (text: string, variables: Record<string, string>) =>
  text.replace(/\{\{\s*([\w ]+?)\s*\}\}/g, (_, name: string) => variables[name] ?? '');

// "Hola **{{name}}**" as Slate rich text: one paragraph of plain and bold leaves.
const richText = (text: string) => [
  {
    type: 'p',
    children: text
      .split(/(\*\*[^*]+\*\*)/)
      .filter(Boolean)
      .map((part) =>
        part.startsWith('**') ? { text: part.slice(2, -2), bold: true } : { text: part },
      ),
  },
];

export const startFakeTypebot = async (options: { port?: number } = {}): Promise<FakeTypebot> => {
  const flows = new Map<string, FakeTypebotStep[]>();
  const sessions = new Map<string, Session>();
  const requests: FakeTypebotRequest[] = [];
  const failures: (number | 'hang')[] = [];
  const hanging = new Set<ServerResponse>();
  let url = '';

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  // Typebot's (tRPC-on-REST) error shape.
  const error = (res: ServerResponse, status: number, message: string, code: string) =>
    send(res, status, { message, code, issues: [] });

  const stepOf = (session: Session) =>
    flows.get(session.slug)?.find((step) => step.id === session.step);

  // The bubbles of a step and the input it waits on (none: the flow ended, the session with it).
  const render = (sessionId: string, session: Session) => {
    const step = stepOf(session);
    if (!step) return { messages: [] };
    const messages = step.say.map((bubble, index) =>
      typeof bubble === 'string'
        ? {
            id: `${step.id}-${index}`,
            type: 'text',
            content: { type: 'richText', richText: richText(fill(bubble, session.variables)) },
          }
        : {
            id: `${step.id}-${index}`,
            type: 'image',
            // A file of its own by name, or any address the flow's author typed.
            content: {
              url: /^https?:/.test(bubble.image) ? bubble.image : `${url}/media/${bubble.image}`,
            },
          },
    );
    if (step.choices)
      return {
        messages,
        input: {
          id: `${step.id}-input`,
          type: 'choice input',
          items: step.choices.map((choice, index) => ({
            id: `${step.id}-item-${index}`,
            content: choice.label,
            outgoingEdgeId: `${step.id}-edge-${index}`,
          })),
          options: { isMultipleChoice: false },
        },
      };
    if (step.ask)
      return {
        messages,
        input: {
          id: `${step.id}-input`,
          type: 'text input',
          options: { labels: { placeholder: 'Type your answer...' } },
        },
      };
    sessions.delete(sessionId);
    return { messages };
  };

  const advance = (sessionId: string, session: Session, text: string) => {
    const step = stepOf(session);
    if (step?.choices) {
      const choice = step.choices.find((c) => c.label.toLowerCase() === text.trim().toLowerCase());
      if (!choice)
        return {
          messages: [
            {
              id: 'retry',
              type: 'text',
              content: {
                type: 'richText',
                richText: richText('Invalid message. Please, try again.'),
              },
            },
          ],
          input: render(sessionId, session).input,
        };
      session.step = choice.next;
    } else if (step?.ask) {
      session.variables[step.ask.variable] = text;
      session.step = step.ask.next;
    }
    return render(sessionId, session);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    if (req.method === 'GET' && path.startsWith('/media/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      return res.end(PNG);
    }
    let body: Record<string, unknown>;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return error(res, 400, 'Invalid JSON', 'BAD_REQUEST');
    }
    requests.push({ path, body });
    const failure = failures.shift();
    if (failure === 'hang') return void hanging.add(res);
    if (failure) return error(res, failure, 'Internal server error', 'INTERNAL_SERVER_ERROR');

    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    if (req.method === 'POST' && start) {
      const slug = decodeURIComponent(start[1]);
      const steps = flows.get(slug);
      if (!steps?.length) return error(res, 404, 'Typebot not found', 'NOT_FOUND');
      const prefilled = (body.prefilledVariables ?? {}) as Record<string, unknown>;
      const variables = Object.fromEntries(
        Object.entries(prefilled).map(([key, value]) => [key, String(value)]),
      );
      const sessionId = randomBytes(12).toString('hex');
      const session = { slug, step: steps[0].id, variables };
      sessions.set(sessionId, session);
      return send(res, 200, {
        sessionId,
        resultId: randomBytes(8).toString('hex'),
        typebot: { id: slug, theme: {}, settings: {} },
        ...render(sessionId, session),
      });
    }
    const next = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (req.method === 'POST' && next) {
      const sessionId = decodeURIComponent(next[1]);
      const session = sessions.get(sessionId);
      if (!session) return error(res, 404, 'Session not found.', 'NOT_FOUND');
      const message = body.message;
      const text =
        typeof message === 'string'
          ? message
          : typeof (message as { text?: unknown } | undefined)?.text === 'string'
            ? (message as { text: string }).text
            : '';
      return send(res, 200, advance(sessionId, session, text));
    }
    return error(res, 404, 'Not found', 'NOT_FOUND');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      handle(req, res, (req.url ?? '/').split('?')[0], Buffer.concat(chunks).toString('utf8')),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    publish: (slug, steps) => void flows.set(slug, steps),
    fail: (times, status) => {
      for (let i = 0; i < times; i += 1) failures.push(status);
    },
    forgetSessions: () => sessions.clear(),
    sessions: () => sessions.size,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
