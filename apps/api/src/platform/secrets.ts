import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the API keeps for a company and must use again (an AI provider's key) are sealed with
// AES-256-GCM under a key derived (HKDF-SHA256) from the server's ENCRYPTION_KEY: a copy of the
// database alone reveals none of them, and a tampered value fails to open instead of decrypting to
// garbage. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). Every node must share ENCRYPTION_KEY.

const VERSION = 'v1';
const IV_BYTES = 12;

// A value this module sealed: version, 12-byte IV and 16-byte tag in base64url, then the data.
const SEALED = /^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]*$/;
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
