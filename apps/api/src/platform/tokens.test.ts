import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens';

const tokens = createTokenService({
  secret: 'a'.repeat(64),
  refreshSecret: 'b'.repeat(64),
  accessTtlSeconds: 60,
});
const claims = { id: 7, companyId: 3, profile: 'admin' as const, super: false, sid: 'login-1' };

afterEach(() => vi.useRealTimers());

describe('access tokens', () => {
  it('answers the claims every time, and expired once the token is past its time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const token = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    // Again, as every request of the session does.
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await tokens.verifyAccess(token)).toBe('expired');
  });

  it('refuses a token changed on the way or signed with another secret, even after a good one', async () => {
    const token = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(token)).toEqual(claims);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, super: true, exp: 4_102_444_800 }));
    expect(
      await tokens.verifyAccess(`${header}.${forged.toString('base64url')}.${signature}`),
    ).toBe('invalid');
    const other = createTokenService({
      secret: 'c'.repeat(64),
      refreshSecret: 'd'.repeat(64),
      accessTtlSeconds: 60,
    });
    expect(await tokens.verifyAccess(await other.signAccess(claims))).toBe('invalid');
    expect(await tokens.verifyAccess(`${header}.${payload}`)).toBe('invalid');
  });
});
