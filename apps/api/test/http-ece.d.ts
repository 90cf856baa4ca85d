// The `http_ece` package (RFC 8188 / RFC 8291 content encoding) has no types of its own: what the
// push tests use of it to decrypt what a push service would hand the browser.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  export const decrypt: (
    buffer: Buffer,
    params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string },
  ) => Buffer;
}
