import type { CampaignView } from '@atendi/shared';
import type { App } from '../src/app';
import type { Db } from '../src/db/client';
import { contactListItems } from '../src/db/schema';
import { eventually } from './eventually';
import { inject, type Session } from './harness';

// Helpers for tests whose contacts got a campaign.

// A contact list of the admin's company with the recipients given; validity as WhatsApp answered it
// (null: unknown).
export const contactListWith = async (
  app: App,
  admin: Session,
  db: Db,
  people: { name: string; number: string; valid?: boolean | null }[],
) => {
  const res = await inject(app, admin, 'POST', '/contact-lists', {
    name: `Lista ${Math.random().toString(36).slice(2, 8)}`,
  });
  if (res.statusCode !== 201) throw new Error(`contact list: ${res.statusCode} ${res.body}`);
  const list = res.json() as { id: number };
  if (people.length)
    await db.insert(contactListItems).values(
      people.map((p) => ({
        companyId: admin.companyId,
        contactListId: list.id,
        name: p.name,
        number: p.number,
        isWhatsappValid: p.valid === undefined ? true : p.valid,
      })),
    );
  return list.id;
};

export const campaignFinished = (app: App, admin: Session, id: number) =>
  eventually(
    async () => (await inject(app, admin, 'GET', `/campaigns/${id}`)).json() as CampaignView,
    (c) => c.status === 'FINALIZADA',
    `campaign ${id} finished`,
    { timeoutMs: 20_000 },
  );

// The people given got "Hola {{firstName}}" from a campaign of the connection, sent without pauses.
export const campaignSent = async (
  app: App,
  admin: Session,
  db: Db,
  connectionId: number,
  people: { name: string; number: string }[],
) => {
  const paced = await inject(app, admin, 'POST', '/campaign-settings', {
    settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 },
  });
  if (paced.statusCode !== 200) throw new Error(`settings: ${paced.statusCode} ${paced.body}`);
  const created = await inject(app, admin, 'POST', '/campaigns', {
    name: 'Promo noviembre',
    message1: 'Hola {{firstName}}',
    whatsappId: connectionId,
    contactListId: await contactListWith(app, admin, db, people),
    scheduledAt: new Date(Date.now() - 1000).toISOString(),
  });
  if (created.statusCode !== 201)
    throw new Error(`campaign: ${created.statusCode} ${created.body}`);
  return campaignFinished(app, admin, (created.json() as CampaignView).id);
};
