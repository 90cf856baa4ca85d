import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for Meta's Graph API (the machines running tests have no internet). It speaks the
// Cloud API shapes the driver uses, records every request, and fails on demand.

export const GRAPH_TOKEN = 'fake-graph-token';

export type RecordedRequest = {
  method: string;
  // Path without the query string, e.g. '/v21.0/1234/messages'.
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  json?: Record<string, unknown>;
  // For multipart uploads: the text fields and the file part.
  form?: { fields: Record<string, string>; file?: { name: string; type: string; data: Buffer } };
};

export type FakeTemplate = {
  id: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  parameter_format?: string;
  components: Record<string, unknown>[];
};

type FakePhone = {
  display_phone_number: string;
  verified_name: string;
  quality_rating?: string;
  messaging_limit_tier?: string;
};

export type FakeError = { status: number; code: number; message: string; type?: string };

export type FakeGraph = {
  url: string;
  requests: RecordedRequest[];
  // Answers GET /{phoneNumberId} with this number (and its quality and tier, when given).
  addPhoneNumber(
    phoneNumberId: string,
    displayPhoneNumber: string,
    verifiedName?: string,
    health?: { quality_rating?: string; messaging_limit_tier?: string },
  ): void;
  // Serves these bytes for GET /{mediaId} (its URL) and the download of that URL.
  addMedia(mediaId: string, data: Buffer, mimeType: string): void;
  // Bytes uploaded with POST /{phoneNumberId}/media, by the media id answered.
  uploads: Map<string, { data: Buffer; type: string; name: string }>;
  // Lists this template under GET /{businessAccountId}/message_templates (cursor-paged by ?limit).
  addTemplate(businessAccountId: string, template: FakeTemplate): void;
  // Free-form messages to these numbers are refused as Meta does outside the 24-hour window
  // (error 131047); templates still go.
  closedWindows: Set<string>;
  // The next request whose path includes pathPart (any request when omitted) answers this error.
  failNext(error: FakeError | 'auth', pathPart?: string): void;
  // The next request whose path includes pathPart gets no answer: held until its caller gives up
  // (timeouts).
  holdNext(pathPart?: string): void;
  close(): Promise<void>;
};

const authError: FakeError = {
  status: 401,
  code: 190,
  type: 'OAuthException',
  message: 'Error validating access token: Session has expired.',
};

// X-Hub-Signature-256 as Meta computes it over the exact body bytes.
export const signPayload = (body: string | Buffer, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

// A webhook POST body around some changes' values, as Meta batches them.
export const webhookBody = (
  ...changes: { phoneNumberId: string; value: Record<string, unknown> }[]
) => ({
  object: 'whatsapp_business_account',
  entry: changes.map((change, i) => ({
    id: `WABA-${i}`,
    changes: [
      {
        field: 'messages',
        value: {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: '15550001111', phone_number_id: change.phoneNumberId },
          ...change.value,
        },
      },
    ],
  })),
});

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export const startFakeGraph = async (options: { token?: string } = {}): Promise<FakeGraph> => {
  const token = options.token ?? GRAPH_TOKEN;
  const requests: RecordedRequest[] = [];
  const phones = new Map<string, FakePhone>();
  const media = new Map<string, { data: Buffer; mimeType: string }>();
  const uploads = new Map<string, { data: Buffer; type: string; name: string }>();
  const templates = new Map<string, FakeTemplate[]>();
  const closedWindows = new Set<string>();
  const failures: { error: FakeError; pathPart?: string }[] = [];
  const holds: { pathPart?: string }[] = [];
  let sequence = 0;
  let base = '';

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const sendError = (res: ServerResponse, error: FakeError) =>
    send(res, error.status, {
      error: {
        message: error.message,
        type: error.type ?? 'OAuthException',
        code: error.code,
        fbtrace_id: 'FAKE',
      },
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    const body = await readBody(req);
    const contentType = req.headers['content-type'] ?? '';
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
    };
    if (contentType.startsWith('application/json') && body.length)
      record.json = JSON.parse(body.toString('utf8'));
    if (contentType.startsWith('multipart/form-data')) {
      const form = await new Response(body, {
        headers: { 'content-type': contentType },
      }).formData();
      const fields: Record<string, string> = {};
      let file: { name: string; type: string; data: Buffer } | undefined;
      for (const [key, value] of form.entries()) {
        if (typeof value === 'string') fields[key] = value;
        else
          file = {
            name: value.name,
            type: value.type,
            data: Buffer.from(await value.arrayBuffer()),
          };
      }
      record.form = { fields, file };
    }
    requests.push(record);

    const hold = holds.findIndex((h) => !h.pathPart || url.pathname.includes(h.pathPart));
    if (hold >= 0) {
      holds.splice(hold, 1);
      await new Promise((resolve) => res.once('close', resolve));
      return;
    }

    const failure = failures.findIndex((f) => !f.pathPart || url.pathname.includes(f.pathPart));
    if (failure >= 0) return sendError(res, failures.splice(failure, 1)[0].error);
    if (req.headers.authorization !== `Bearer ${token}`) return sendError(res, authError);

    const download = /^\/download\/(.+)$/.exec(url.pathname);
    if (download) {
      const file = media.get(decodeURIComponent(download[1]));
      if (!file) return send(res, 404, { error: { message: 'Not found', code: 100 } });
      res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.data.length });
      return res.end(file.data);
    }
    const [, version, id, edge] = url.pathname.split('/');
    if (version !== 'v21.0' || !id)
      return send(res, 400, { error: { message: 'Unknown path or version', code: 2500 } });
    const objectId = decodeURIComponent(id);

    if (req.method === 'GET' && edge === 'message_templates') {
      const all = templates.get(objectId);
      if (!all)
        return send(res, 400, {
          error: { message: `Object with ID '${objectId}' does not exist`, code: 100 },
        });
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25) || 25, 100);
      const start = Number(url.searchParams.get('after') ?? 0) || 0;
      const page = all.slice(start, start + limit);
      const more = start + limit < all.length;
      const after = String(start + page.length);
      return send(res, 200, {
        data: page,
        paging: {
          cursors: { before: String(start), after },
          ...(more ? { next: `${base}${url.pathname}?limit=${limit}&after=${after}` } : {}),
        },
      });
    }
    if (req.method === 'GET' && !edge) {
      const phone = phones.get(objectId);
      if (phone) return send(res, 200, { ...phone, id: objectId });
      const file = media.get(objectId);
      if (file)
        return send(res, 200, {
          messaging_product: 'whatsapp',
          url: `${base}/download/${encodeURIComponent(objectId)}`,
          mime_type: file.mimeType,
          sha256: 'fake',
          file_size: file.data.length,
          id: objectId,
        });
      return send(res, 400, {
        error: {
          message: `Unsupported get request. Object with ID '${objectId}' does not exist`,
          code: 100,
        },
      });
    }
    if (req.method === 'POST' && edge === 'messages' && record.json) {
      if (record.json.status === 'read') return send(res, 200, { success: true });
      if (record.json.type !== 'template' && closedWindows.has(String(record.json.to)))
        return send(res, 400, {
          error: {
            message: '(#131047) Re-engagement message',
            type: 'OAuthException',
            code: 131047,
            error_data: {
              details:
                'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
            },
          },
        });
      sequence += 1;
      return send(res, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: record.json.to, wa_id: record.json.to }],
        messages: [{ id: `wamid.${sequence}` }],
      });
    }
    if (req.method === 'POST' && edge === 'media' && record.form?.file) {
      sequence += 1;
      const mediaId = `media.${sequence}`;
      uploads.set(mediaId, record.form.file);
      return send(res, 200, { id: mediaId });
    }
    return send(res, 400, { error: { message: 'Unsupported request', code: 100 } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      send(res, 500, { error: { message: String(error), code: 1 } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    uploads,
    closedWindows,
    addTemplate(businessAccountId, template) {
      templates.set(businessAccountId, [...(templates.get(businessAccountId) ?? []), template]);
    },
    addPhoneNumber(phoneNumberId, displayPhoneNumber, verifiedName = 'Fake Business', health = {}) {
      phones.set(phoneNumberId, {
        display_phone_number: displayPhoneNumber,
        verified_name: verifiedName,
        ...health,
      });
    },
    addMedia(mediaId, data, mimeType) {
      media.set(mediaId, { data, mimeType });
    },
    failNext(error, pathPart) {
      failures.push({ error: error === 'auth' ? authError : error, pathPart });
    },
    holdNext(pathPart) {
      holds.push({ pathPart });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
