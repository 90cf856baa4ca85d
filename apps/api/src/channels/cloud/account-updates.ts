import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { messageTemplates, whatsapps } from '../../db/schema';
import type { ChannelEvent, ConnectionRow } from '../driver';
import { normalizeNumber } from '../numbers';
import type { AccountUpdate } from './payloads';

// Meta's account-level notifications for the Cloud API numbers of a WhatsApp Business Account
// (issue 39: number health): a number's quality and messaging limit tier, a ban, a template's review.
// They name the account and (for a number) its display number, never a phone number id, so the
// connections are found by their business account id. Applying one twice changes nothing.

// The connections of these business accounts (every company's: the signature decides who may speak).
export const accountConnections = (db: Db, businessAccountIds: string[]) =>
  db
    .select()
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.provider, 'cloud'),
        inArray(whatsapps.cloudBusinessAccountId, businessAccountIds),
      ),
    );

// FLAGGED: the quality dropped to low (red); UNFLAGGED: it recovered. Tier changes carry no rating.
const qualityOf: Record<string, string> = { FLAGGED: 'RED', UNFLAGGED: 'GREEN' };
// The ban states in which the account can no longer send.
const BANNED = new Set(['DISABLE', 'SCHEDULE_FOR_DISABLE']);

export const applyAccountUpdates = async (
  deps: {
    db: Db;
    deliver: (row: ConnectionRow, event: ChannelEvent) => Promise<void>;
    log: FastifyBaseLogger;
  },
  connections: ConnectionRow[],
  groups: { businessAccountId: string; updates: AccountUpdate[] }[],
) => {
  for (const { businessAccountId, updates } of groups) {
    const ofAccount = connections.filter((c) => c.cloudBusinessAccountId === businessAccountId);
    const byNumber = (number: string | undefined) =>
      number ? ofAccount.filter((c) => normalizeNumber(c.number) === number) : ofAccount;
    for (const update of updates) {
      switch (update.kind) {
        case 'quality':
          for (const row of byNumber(update.phoneNumber))
            await deps.deliver(row, {
              type: 'health',
              quality: qualityOf[update.event],
              messagingLimit: update.currentLimit,
            });
          break;
        case 'account':
          if (update.banState && BANNED.has(update.banState))
            for (const row of byNumber(update.phoneNumber))
              await deps.deliver(row, {
                type: 'status',
                status: 'DISCONNECTED',
                cause: 'banned',
                reason: `Meta: ${update.event} (${update.banState})`,
              });
          else deps.log.info({ businessAccountId, event: update.event }, 'cloud account update');
          break;
        case 'template': {
          if (!ofAccount.length) break;
          await deps.db
            .update(messageTemplates)
            .set({ status: update.event, updatedAt: new Date() })
            .where(
              and(
                inArray(
                  messageTemplates.whatsappId,
                  ofAccount.map((c) => c.id),
                ),
                or(
                  eq(messageTemplates.providerId, update.templateId),
                  update.name && update.language
                    ? and(
                        eq(messageTemplates.name, update.name),
                        eq(messageTemplates.language, update.language),
                      )
                    : sql`false`,
                ),
              ),
            );
          break;
        }
      }
    }
  }
};
