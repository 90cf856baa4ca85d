import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secrets';

describe('secret box', () => {
  const box = createSecretBox('a-server-secret-of-at-least-32-characters');

  it('opens what it sealed, and never shows the secret in the sealed text', () => {
    const sealed = box.seal('sk-live-abcdef123456');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('sk-live');
    expect(box.open(sealed)).toBe('sk-live-abcdef123456');
    // A fresh nonce every time: the same key never seals to the same text.
    expect(box.seal('sk-live-abcdef123456')).not.toBe(sealed);
  });

  it('refuses a changed value and a value sealed under another server secret', () => {
    const sealed = box.seal('sk-live-abcdef123456');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() =>
      box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.')),
    ).toThrow();
    const other = createSecretBox('another-server-secret-of-32-characters!!');
    expect(() => other.open(sealed)).toThrow();
    expect(() => box.open('not sealed at all')).toThrow();
  });
});
