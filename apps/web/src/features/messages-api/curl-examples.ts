import type { ExternalSendResponse } from '@atendi/shared';
import { idempotencyHeaderName } from './messages-api.api';

// Single-quoted for a POSIX shell: a quote inside becomes '\''.
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const command = (lines: string[]) => lines.join(' \\\n  ');

const EXAMPLE_NUMBER = '5511999999999';

export const textCurl = ({ url, token, body }: { url: string; token: string; body: string }) =>
  command([
    `curl -X POST ${quote(url)}`,
    `-H ${quote(`Authorization: Bearer ${token}`)}`,
    `-H 'Content-Type: application/json'`,
    `-d ${quote(JSON.stringify({ number: EXAMPLE_NUMBER, body }))}`,
  ]);

// --form-string keeps a caption starting with @ or < from being read as a file.
export const mediaCurl = ({
  url,
  token,
  caption,
  file,
}: {
  url: string;
  token: string;
  caption: string;
  file: string;
}) =>
  command([
    `curl -X POST ${quote(url)}`,
    `-H ${quote(`Authorization: Bearer ${token}`)}`,
    `-F ${quote(`number=${EXAMPLE_NUMBER}`)}`,
    `--form-string ${quote(`body=${caption}`)}`,
    `-F ${quote(`medias=@${file}`)}`,
  ]);

export const idempotencyExample = (key: string) => `${idempotencyHeaderName}: ${key}`;

export const exampleResponse = (body: string): ExternalSendResponse => ({
  ticketId: 42,
  contactId: 17,
  number: EXAMPLE_NUMBER,
  messages: [
    { id: 901, status: 'queued', body, mediaType: 'chat', createdAt: '2025-05-20T14:03:12.000Z' },
  ],
});

export const exampleError = {
  error: 'ERR_VALIDATION',
  message: 'Use 8 to 15 digits',
  fields: { number: ['Use 8 to 15 digits'] },
};

export const prettyJson = (value: unknown) => JSON.stringify(value, null, 2);
