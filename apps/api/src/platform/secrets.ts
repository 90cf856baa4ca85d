import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the API keeps for a company and must use again (an AI provider's key) are sealed with
// AES-256-GCM under a key derived (HKDF-SHA256) from the server's ENCRYPTION_KEY: a copy of the
// database alone reveals none of them, and a tampered value fails to open instead of decrypting to
// garbage. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). Every node must share ENCRYPTION_KEY.

const VERSION = 'v1';
const IV_BYTES = 12;

// A value this module sealed: version, 12-byte IV and 16-byte tag in base64url, then the data.
// The same shape as a POSIX pattern, for SQL (`column !~ SEALED_PATTERN`).
export const SEALED_PATTERN = '^v1\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]*$';
const SEALED = new RegExp(SEALED_PATTERN);
export const isSealed = (value: string) => SEALED.test(value);

export type SecretBox = {
  seal: (plain: string) => string;
  // Throws when the value was not sealed with this key or was changed.
  open: (sealed: string) => string;
};

export const createSecretBox = (serverSecret: string): SecretBox => {
  const key = Buffer.from(
    hkdfSync('sha256', serverSecret, 'atendi', 'company secrets v1', 32) as ArrayBuffer,
  );
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined)
        throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
};

// The plain value of a sealed secret; null when there is none or it was sealed under another
// ENCRYPTION_KEY or changed (the admin enters it again).
export const openOrNull = (
  secrets: Pick<SecretBox, 'open'>,
  sealed: string | null | undefined,
): string | null => {
  if (!sealed) return null;
  try {
    return secrets.open(sealed);
  } catch {
    return null;
  }
};
