import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send: (mail: Mail) => Promise<void> };

// Without SMTP_URL, mail is kept as files under DATA_DIR/mail so a person can still read it.
export const createMailer = (options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer => {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        options.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  const dir = path.join(options.dataDir, 'mail');
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.txt`);
      const body = `From: ${options.from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`;
      await writeFile(file, body, { mode: 0o600 });
      // The file holds the content (it may carry a reset code); the log only says where it is.
      options.log.info(
        { to: mail.to, subject: mail.subject, file },
        'SMTP_URL not set: mail kept on disk',
      );
    },
  };
};
