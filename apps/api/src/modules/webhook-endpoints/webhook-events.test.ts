import { describe, expect, it } from 'vitest';
import type { TicketSnapshot } from '../../events/domain-events';
import { webhookRetryDelay } from './webhook-delivery';
import { ticketChangeTypes } from './webhook-events';

// Which webhook events a ticket's lifecycle change is, and how long a failed delivery waits.

const ticket = (fields: Partial<TicketSnapshot> = {}): TicketSnapshot => ({
  status: 'pending',
  userId: null,
  queueId: 1,
  whatsappId: 1,
  promptId: null,
  integrationId: null,
  chatbot: false,
  ...fields,
});

const typesOf = (before: TicketSnapshot | null, after: TicketSnapshot) =>
  ticketChangeTypes({ before, after }).map(({ type, change }) =>
    change ? `${type}:${change}` : type,
  );

describe('ticket changes as webhook events', () => {
  it('tells created, assigned, transferred, resolved and reopened apart', () => {
    expect(typesOf(null, ticket())).toEqual(['ticket.created']);
    expect(typesOf(null, ticket({ status: 'open', userId: 7 }))).toEqual([
      'ticket.created',
      'ticket.assigned',
    ]);
    // Accepted from the queue: given to an agent, not moved.
    expect(typesOf(ticket(), ticket({ status: 'open', userId: 7 }))).toEqual(['ticket.assigned']);
    // To another agent: assigned and transferred.
    expect(
      typesOf(ticket({ status: 'open', userId: 7 }), ticket({ status: 'open', userId: 8 })),
    ).toEqual(['ticket.assigned', 'ticket.transferred']);
    // To another queue, waiting there.
    expect(typesOf(ticket({ status: 'open', userId: 7 }), ticket({ queueId: 2 }))).toEqual([
      'ticket.transferred',
    ]);
    expect(typesOf(ticket(), ticket({ whatsappId: 2 }))).toEqual(['ticket.transferred']);
    expect(
      typesOf(ticket({ status: 'open', userId: 7 }), ticket({ status: 'closed', userId: 7 })),
    ).toEqual(['ticket.resolved']);
    expect(
      typesOf(ticket({ status: 'closed', userId: 7 }), ticket({ status: 'open', userId: 7 })),
    ).toEqual(['ticket.reopened']);
  });

  it('calls anything else an update, saying what changed', () => {
    // The queue bot's first pick of a queue.
    expect(typesOf(ticket({ queueId: null }), ticket({ queueId: 3 }))).toEqual([
      'ticket.updated:queue',
    ]);
    expect(
      typesOf(ticket({ status: 'open', userId: 7 }), ticket({ status: 'pending', userId: 7 })),
    ).toEqual(['ticket.updated:status']);
    // Back to the queue: its agent let go of it.
    expect(typesOf(ticket({ userId: 7 }), ticket())).toEqual(['ticket.updated:user']);
    expect(typesOf(ticket(), ticket({ promptId: 4 }))).toEqual(['ticket.updated:bot']);
  });
});

describe('webhook retry delays', () => {
  it('grow five times each attempt, capped at six hours, less up to a quarter at random', () => {
    const base = 5000;
    expect([1, 2, 3, 4].map((n) => webhookRetryDelay(n, base, () => 0))).toEqual([
      5000, 25_000, 125_000, 625_000,
    ]);
    expect(webhookRetryDelay(9, base, () => 0)).toBe(6 * 3600_000);
    expect(webhookRetryDelay(2, base, () => 0.999)).toBeGreaterThan(25_000 * 0.75);
    expect(webhookRetryDelay(2, base, () => 0.999)).toBeLessThan(25_000 * 0.76);
  });
});
