import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import Fastify from 'fastify';
import { createMailer } from './mailer';

const log = Fastify({ logger: false }).log;
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'atendi-mail-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('mailer', () => {
  it('delivers through the SMTP server named by SMTP_URL', async () => {
    const received: { from?: string; to: string[]; raw: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (chunk) => (raw += chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'Atendi <no-reply@atendi.test>',
        dataDir,
        log,
      });
      await mailer.send({ to: 'ana@example.com', subject: 'Código', text: 'Su código es: 123456' });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ from: 'no-reply@atendi.test', to: ['ana@example.com'] });
      expect(received[0].raw).toContain('123456');
      expect(readdirSync(dataDir)).not.toContain('mail');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('without SMTP_URL keeps the mail as a file under DATA_DIR/mail', async () => {
    const mailer = createMailer({ from: 'Atendi <no-reply@atendi.test>', dataDir, log });
    await mailer.send({ to: 'ana@example.com', subject: 'Código', text: 'Su código es: 654321' });
    const [file] = readdirSync(path.join(dataDir, 'mail'));
    const content = readFileSync(path.join(dataDir, 'mail', file), 'utf8');
    expect(content).toContain('To: ana@example.com');
    expect(content).toContain('654321');
  });
});
