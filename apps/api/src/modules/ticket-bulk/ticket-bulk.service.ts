import type { FastifyInstance } from 'fastify';
import {
  TICKET_BULK_MAX,
  type TicketBulkInput,
  type TicketBulkResult,
  type TicketUpdateInput,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { addTicketTag } from '../tags';
import { listTickets, updateTicket } from '../tickets';

// Bulk actions on the ticket list (issue 36): one action on many tickets, each through exactly the
// change its single route makes (PUT /tickets/{id}: the same lock, rules, automatic messages and
// events; the tag route for tags), one after another, so a ticket that cannot be moved (taken
// meanwhile, not the caller's, gone) fails alone and says why while the others go on.

type Deps = Parameters<typeof updateTicket>[0] & Parameters<typeof addTicketTag>[0];

// Every ticket the caller's list shows for the filter, newest first, at most TICKET_BULK_MAX.
const matching = async (deps: Pick<AppDeps, 'db'>, ctx: AuthContext, input: TicketBulkInput) => {
  const ids: number[] = [];
  for (let pageNumber = 1; ids.length < TICKET_BULK_MAX; pageNumber += 1) {
    const page = await listTickets(deps.db, ctx, { ...input.filter!, pageNumber });
    ids.push(...page.tickets.map((ticket) => ticket.id));
    if (!page.hasMore) break;
  }
  return ids.slice(0, TICKET_BULK_MAX);
};

const changeOf = (input: TicketBulkInput): TicketUpdateInput => {
  switch (input.action) {
    case 'resolve':
      return { status: 'closed' };
    case 'return':
      return { status: 'pending' };
    default:
      // SPEC §4 Transfer: to a person it is open as theirs; to nobody it waits in the queue.
      return {
        userId: input.userId ?? null,
        ...(input.queueId !== undefined ? { queueId: input.queueId } : {}),
        status: input.userId ? 'open' : 'pending',
      };
  }
};

export const bulkUpdateTickets = async (
  deps: Deps,
  ctx: AuthContext,
  input: TicketBulkInput,
  log: FastifyInstance['log'],
): Promise<TicketBulkResult> => {
  const ids = [...new Set(input.ids ?? (await matching(deps, ctx, input)))];
  const results: TicketBulkResult['results'] = [];
  for (const id of ids) {
    try {
      if (input.action === 'tag') await addTicketTag(deps, ctx, id, input.tagId!);
      else await updateTicket(deps, ctx, id, changeOf(input));
      results.push({ id, ok: true });
    } catch (error) {
      if (error instanceof AppError)
        results.push({ id, ok: false, error: error.code, message: error.message });
      else {
        log.error({ err: error, ticketId: id }, 'bulk ticket change failed');
        results.push({
          id,
          ok: false,
          error: 'ERR_INTERNAL_SERVER_ERROR',
          message: 'The change could not be made',
        });
      }
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { total: results.length, succeeded, failed: results.length - succeeded, results };
};
