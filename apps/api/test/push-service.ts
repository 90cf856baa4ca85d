import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import type { PushPayload } from '@atendi/shared';

// A push service for the tests, on 127.0.0.1 (which the harness's OUTBOUND_ALLOW_PRIVATE lets the
// API reach): it keeps every push POSTed to it, per device path, and answers each device's pushes
// with the status the test sets (201 by default, as FCM and Mozilla's autopush do).

type Push = { headers: IncomingHttpHeaders; body: Buffer };

export const startPushService = async () => {
  const received = new Map<string, Push[]>();
  const answers = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.set(path, [
        ...(received.get(path) ?? []),
        { headers: req.headers, body: Buffer.concat(chunks) },
      ]);
      res.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let devices = 0;
  return {
    // A browser's subscription: its own P-256 key pair and 16-byte auth secret, as PushManager makes
    // them, and what the service received for it, decrypted as the browser would.
    device() {
      const path = `/push/device-${(devices += 1)}`;
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      return {
        path,
        subscription: {
          endpoint: `${url}${path}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
        },
        pushes: () => received.get(path) ?? [],
        answer: (status: number) => answers.set(path, status),
        open: (push: Push) =>
          JSON.parse(
            decrypt(push.body, {
              version: 'aes128gcm',
              privateKey: ecdh,
              authSecret: auth,
            }).toString('utf8'),
          ) as PushPayload,
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type PushService = Awaited<ReturnType<typeof startPushService>>;
export type Device = ReturnType<PushService['device']>;
