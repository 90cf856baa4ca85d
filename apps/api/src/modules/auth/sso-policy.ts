import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companySso, ssoDomains } from '../../db/schema';

// Who signs in how under a company's single sign-on (issue 37; the round trip is sso.ts).

export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

// The enabled provider covering the email's domain, if any.
export const providerForEmail = async (db: Db, email: string) => {
  const [row] = await db
    .select({ sso: companySso })
    .from(ssoDomains)
    .innerJoin(companySso, eq(companySso.companyId, ssoDomains.companyId))
    .where(and(eq(ssoDomains.domain, domainOf(email)), eq(companySso.enabled, true)));
  return row?.sso;
};

// GET /auth/sso: what the login page offers for the email typed.
export const discoverSso = async (db: Db, email: string) => {
  const sso = await providerForEmail(db, email);
  return { sso: !!sso, passwordLogin: sso ? sso.passwordLogin : true };
};

// Whether the user may sign in with a password: not in a company that signs in with SSO only
// (super users always may, so a broken provider cannot lock the platform's operators out).
export const passwordLoginAllowed = async (db: Db, user: { companyId: number; super: boolean }) => {
  if (user.super) return true;
  const [row] = await db
    .select({ passwordLogin: companySso.passwordLogin })
    .from(companySso)
    .where(and(eq(companySso.companyId, user.companyId), eq(companySso.enabled, true)));
  return !row || row.passwordLogin;
};
