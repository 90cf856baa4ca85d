import { describe, expect, it } from 'vitest';
import { signPayload } from '../../../test/fake-graph';
import { verifySignature } from './signature';

const secret = 'app-secret-123';
const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

describe('verifySignature', () => {
  it('accepts the HMAC-SHA256 of the exact body with the app secret', () => {
    expect(verifySignature(body, signPayload(body, secret), secret)).toBe(true);
    // Hex case does not matter.
    expect(
      verifySignature(
        body,
        signPayload(body, secret).toUpperCase().replace('SHA256', 'sha256'),
        secret,
      ),
    ).toBe(true);
  });

  it('rejects a body changed after signing, even by whitespace', () => {
    const header = signPayload(body, secret);
    const tampered = Buffer.from(body.toString().replace('[]', '[ ]'));
    expect(verifySignature(tampered, header, secret)).toBe(false);
  });

  it('rejects a signature made with another secret', () => {
    expect(verifySignature(body, signPayload(body, 'other-secret'), secret)).toBe(false);
  });

  it('rejects missing and malformed headers without throwing', () => {
    const hex = signPayload(body, secret).slice('sha256='.length);
    for (const header of [
      undefined,
      '',
      hex,
      `sha1=${hex}`,
      'sha256=',
      'sha256=zz',
      `sha256=${hex}00`,
      `sha256=${hex.slice(2)}`,
    ])
      expect(verifySignature(body, header, secret), String(header)).toBe(false);
  });

  it('rejects everything when the connection has no app secret', () => {
    expect(verifySignature(body, signPayload(body, ''), '')).toBe(false);
  });
});
