import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^sha256=([0-9a-f]{64})$/i;

// Meta signs every webhook POST with the app secret: X-Hub-Signature-256 = 'sha256=' + hex HMAC-SHA256
// of the exact bytes sent, so the check runs on the raw body, never on re-serialised JSON.
export const verifySignature = (
  rawBody: Buffer,
  header: string | undefined,
  appSecret: string,
): boolean => {
  if (!appSecret || typeof header !== 'string') return false;
  const match = HEADER.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
};
