import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, users } from '../db/schema';
import type { Mailer } from './mailer';

// A notice to a company's admins in Spanish, English and Brazilian Portuguese (companies have no
// language: each email carries the three, in that order). `{company}` in a text is the company's name.
export type AdminNotice = { subject: string; es: string; en: string; pt: string };

// Emails the notice to every admin of the company, one at a time; an email that cannot be sent is
// reported to `failed` and the others still go.
export const mailCompanyAdmins = async (
  deps: { db: Db; mailer: Mailer },
  companyId: number,
  notice: AdminNotice,
  failed: (err: unknown) => void,
) => {
  const admins = await deps.db
    .select({ email: users.email, name: users.name, company: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, companyId), eq(users.profile, 'admin')));
  for (const admin of admins) {
    const named = (text: string) => text.replaceAll('{company}', admin.company);
    try {
      await deps.mailer.send({
        to: admin.email,
        subject: named(notice.subject),
        text: `Hola ${admin.name},\n\n${named(notice.es)}\n\n${named(notice.en)}\n\n${named(notice.pt)}\n`,
      });
    } catch (err) {
      failed(err);
    }
  }
};
