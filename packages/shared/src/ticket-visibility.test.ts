import { describe, expect, it } from 'vitest';
import {
  canSeeTicket,
  isTicketListed,
  seesAllTickets,
  type TicketScope,
  type TicketViewer,
} from './ticket-visibility';

const ME = 1;
const OTHER = 2;
const MY_QUEUE = 10;
const OTHER_QUEUE = 20;

const admin: TicketViewer = { userId: ME, queueIds: [MY_QUEUE], seesAll: true };
const agent: TicketViewer = { userId: ME, queueIds: [MY_QUEUE], seesAll: false };
const agentWithoutQueues: TicketViewer = { userId: ME, queueIds: [], seesAll: false };

const ticket = (status: string, queueId: number | null, userId: number | null): TicketScope => ({
  status,
  queueId,
  userId,
});

// Every combination the rule distinguishes.
const grid = ['open', 'pending', 'closed'].flatMap((status) =>
  [null, MY_QUEUE, OTHER_QUEUE].flatMap((queueId) =>
    [null, ME, OTHER].map((userId) => ticket(status, queueId, userId)),
  ),
);

describe('seesAllTickets', () => {
  it('is for admins and super users only', () => {
    expect(seesAllTickets({ profile: 'admin' })).toBe(true);
    expect(seesAllTickets({ profile: 'user', isSuper: true })).toBe(true);
    expect(seesAllTickets({ profile: 'user', super: true })).toBe(true);
    expect(seesAllTickets({ profile: 'user' })).toBe(false);
    expect(seesAllTickets({ profile: 'supervisor' })).toBe(false);
  });
});

describe('canSeeTicket', () => {
  it.each([
    ['an admin, any ticket', admin, ticket('open', OTHER_QUEUE, OTHER), true],
    [
      'an agent, their own ticket in a queue they left',
      agent,
      ticket('open', OTHER_QUEUE, ME),
      true,
    ],
    [
      'an agent, a ticket without a queue held by another',
      agent,
      ticket('open', null, OTHER),
      true,
    ],
    ['an agent, another’s ticket in their queue', agent, ticket('open', MY_QUEUE, OTHER), true],
    [
      'an agent, a waiting ticket of another queue',
      agent,
      ticket('pending', OTHER_QUEUE, null),
      false,
    ],
    [
      'an agent, another’s ticket of another queue',
      agent,
      ticket('closed', OTHER_QUEUE, OTHER),
      false,
    ],
    [
      'an agent without queues, a queued ticket',
      agentWithoutQueues,
      ticket('pending', MY_QUEUE, null),
      false,
    ],
  ])('%s: %s', (_name, viewer, scope, expected) => {
    expect(canSeeTicket(viewer, scope)).toBe(expected);
  });

  it('lets whoever sees every ticket see each one', () => {
    expect(grid.every((scope) => canSeeTicket(admin, scope))).toBe(true);
  });
});

describe('isTicketListed', () => {
  it.each([
    [
      'an admin with show-all, another’s open ticket of another queue',
      admin,
      true,
      ticket('open', OTHER_QUEUE, OTHER),
      true,
    ],
    [
      'an admin without show-all, another’s open ticket in their queue',
      admin,
      false,
      ticket('open', MY_QUEUE, OTHER),
      false,
    ],
    [
      'an agent asking for show-all, another’s open ticket in their queue',
      agent,
      true,
      ticket('open', MY_QUEUE, OTHER),
      false,
    ],
    [
      'an agent, their own ticket of another queue',
      agent,
      false,
      ticket('open', OTHER_QUEUE, ME),
      true,
    ],
    [
      'an agent, a waiting ticket of their queue',
      agent,
      false,
      ticket('pending', MY_QUEUE, null),
      true,
    ],
    [
      'an agent, a waiting ticket without a queue',
      agent,
      false,
      ticket('pending', null, null),
      true,
    ],
    [
      'an agent, a waiting ticket of another queue',
      agent,
      false,
      ticket('pending', OTHER_QUEUE, null),
      false,
    ],
    [
      'an agent, another’s closed ticket of their queue',
      agent,
      false,
      ticket('closed', MY_QUEUE, OTHER),
      true,
    ],
    [
      'an agent, another’s closed ticket of another queue',
      agent,
      false,
      ticket('closed', OTHER_QUEUE, OTHER),
      false,
    ],
    [
      'an agent, another’s open ticket without a queue',
      agent,
      false,
      ticket('open', null, OTHER),
      false,
    ],
    [
      'an agent without queues, a waiting ticket of a queue',
      agentWithoutQueues,
      false,
      ticket('pending', MY_QUEUE, null),
      false,
    ],
  ])('%s: %s', (_name, viewer, showAll, scope, expected) => {
    expect(isTicketListed(viewer, scope, showAll)).toBe(expected);
  });

  it('never lists a ticket its viewer may not open', () => {
    for (const viewer of [admin, agent, agentWithoutQueues])
      for (const showAll of [true, false])
        for (const scope of grid)
          if (isTicketListed(viewer, scope, showAll))
            expect(canSeeTicket(viewer, scope)).toBe(true);
  });

  it('lists every ticket to an admin with show-all and ignores show-all for the others', () => {
    expect(grid.every((scope) => isTicketListed(admin, scope, true))).toBe(true);
    for (const scope of grid)
      expect(isTicketListed(agent, scope, true)).toBe(isTicketListed(agent, scope, false));
  });
});
