import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Profile } from '@atendi/shared';

export type AccessClaims = {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  // The login (refresh-token family) this token belongs to.
  sid: string;
};

export type TokenService = ReturnType<typeof createTokenService>;

// Verified tokens remembered: a node's live sessions, with room to spare.
const MAX_VERIFIED = 20_000;

export const createTokenService = (options: {
  secret: string;
  refreshSecret: string;
  accessTtlSeconds: number;
}) => {
  const key = new TextEncoder().encode(options.secret);
  // Tokens verified lately and their claims, oldest first.
  const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  return {
    signAccess: (claims: AccessClaims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(`${options.accessTtlSeconds}s`)
        .sign(key),
    // Answers the claims, 'expired' or 'invalid'; never throws.
    verifyAccess: async (token: string): Promise<AccessClaims | 'expired' | 'invalid'> => {
      // A token's claims never change: one verified before is only checked for its expiry again
      // (verifying runs on the thread pool, every request of a session carries the same token).
      const known = verified.get(token);
      if (known) return Date.now() < known.expiresAt ? known.claims : 'expired';
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { id, companyId, profile, sid } = payload as Partial<AccessClaims>;
        if (
          typeof id !== 'number' ||
          typeof companyId !== 'number' ||
          typeof sid !== 'string' ||
          typeof payload.exp !== 'number'
        ) {
          return 'invalid';
        }
        const claims = {
          id,
          companyId,
          profile: profile as Profile,
          super: payload.super === true,
          sid,
        };
        if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, expiresAt: payload.exp * 1000 });
        return claims;
      } catch (error) {
        return error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid';
      }
    },
    newOpaqueToken: () => randomBytes(32).toString('base64url'),
    // Refresh tokens and reset codes are stored only as keyed hashes.
    hashOpaque: (value: string) =>
      createHmac('sha256', options.refreshSecret).update(value).digest('base64url'),
    sameHash: (a: string, b: string) => {
      const x = Buffer.from(a);
      const y = Buffer.from(b);
      return x.length === y.length && timingSafeEqual(x, y);
    },
  };
};
