import { describe, expect, it } from 'vitest';
import type { tickets } from '../../../db/schema';
import {
  closeInactive,
  handOverFromAgent,
  handOverFromIntegration,
  planTicketUpdate,
  timedTransfer,
} from './ticket-transition';

type TicketRow = typeof tickets.$inferSelect;

const ticket = (fields: Partial<TicketRow>): TicketRow =>
  ({
    id: 1,
    status: 'pending',
    userId: null,
    queueId: 5,
    whatsappId: 2,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    unreadMessages: 3,
    chatbot: true,
    ratingAt: null,
    routedAt: null,
    ...fields,
  }) as TicketRow;

const agent = { userId: 10, seesAll: false };
const admin = { userId: 20, seesAll: true };

describe('planTicketUpdate', () => {
  it('accept takes a waiting ticket for the caller, reads it and stops the bot', () => {
    expect(planTicketUpdate(ticket({}), { status: 'open' }, agent)).toEqual({
      kind: 'change',
      next: { status: 'open', userId: 10, unreadMessages: 0, chatbot: false },
    });
  });

  it('a routed conversation moved by a person is no longer waiting for its agent’s first word', () => {
    const routed = ticket({ status: 'open', userId: 10, chatbot: false, routedAt: new Date() });
    expect(planTicketUpdate(routed, { status: 'closed' }, agent)).toMatchObject({
      kind: 'change',
      next: { status: 'closed', routedAt: null },
    });
    expect(planTicketUpdate(routed, { queueId: 6 }, agent)).toEqual({
      kind: 'change',
      next: { queueId: 6 },
    });
  });

  it('accepting a conversation an AI agent answers takes it from the agent', () => {
    expect(
      planTicketUpdate(ticket({ promptId: 7, chatbot: false }), { status: 'open' }, agent),
    ).toEqual({
      kind: 'change',
      next: { status: 'open', userId: 10, unreadMessages: 0, promptId: null },
    });
    // Handing it to a person while naming an agent keeps the agent named.
    expect(
      planTicketUpdate(ticket({ promptId: 7 }), { userId: 10, promptId: 7 }, admin),
    ).toMatchObject({ kind: 'change', next: { status: 'open', userId: 10 } });
  });

  it('accept or reopen of a ticket someone else holds is a conflict, for admins too', () => {
    const held = ticket({ status: 'open', userId: 11, chatbot: false });
    expect(planTicketUpdate(held, { status: 'open' }, agent)).toEqual({
      kind: 'taken',
      holderId: 11,
    });
    expect(planTicketUpdate(held, { status: 'open' }, admin)).toEqual({
      kind: 'taken',
      holderId: 11,
    });
    // An accept naming the caller is still an accept, not a takeover.
    expect(planTicketUpdate(held, { status: 'open', userId: 20 }, admin)).toEqual({
      kind: 'taken',
      holderId: 11,
    });
    // Naming another person is a transfer.
    expect(planTicketUpdate(held, { status: 'open', userId: 12 }, admin)).toMatchObject({
      kind: 'change',
      next: { userId: 12 },
    });
  });

  it('asking again for the state the ticket is already in changes nothing', () => {
    const mine = ticket({ status: 'open', userId: 10, chatbot: false, unreadMessages: 0 });
    expect(planTicketUpdate(mine, { status: 'open' }, agent)).toEqual({ kind: 'unchanged' });
    const closed = ticket({ status: 'closed', userId: 10, chatbot: false });
    expect(
      planTicketUpdate(closed, { status: 'closed', useIntegration: false, promptId: null }, admin),
    ).toEqual({ kind: 'unchanged' });
    expect(planTicketUpdate(ticket({}), { status: 'pending' }, agent)).toEqual({
      kind: 'unchanged',
    });
  });

  it('only profiles that see every ticket move a conversation someone else serves', () => {
    const held = ticket({ status: 'open', userId: 11, chatbot: false });
    expect(planTicketUpdate(held, { status: 'closed' }, agent)).toEqual({ kind: 'forbidden' });
    expect(planTicketUpdate(held, { userId: 10, queueId: 6 }, agent)).toEqual({
      kind: 'forbidden',
    });
    expect(planTicketUpdate(held, { userId: 20, queueId: 6 }, admin)).toEqual({
      kind: 'change',
      next: { queueId: 6, userId: 20 },
    });
  });

  it('a transfer to nobody puts the ticket back to waiting; closing clears bots and AI', () => {
    const mine = ticket({ status: 'open', userId: 10, chatbot: false, unreadMessages: 0 });
    expect(planTicketUpdate(mine, { userId: null, queueId: 6 }, agent)).toEqual({
      kind: 'change',
      next: { queueId: 6, status: 'pending', userId: null },
    });
    const withBot = ticket({ status: 'open', userId: 10, useIntegration: true, promptId: 4 });
    expect(planTicketUpdate(withBot, { status: 'closed' }, agent)).toEqual({
      kind: 'change',
      next: { status: 'closed', useIntegration: false, promptId: null, chatbot: false },
    });
  });
});

describe('the moves the platform makes', () => {
  const now = new Date('2025-03-04T09:00:00Z');

  it('an AI agent hands over into the queue it names, without an agent or bot', () => {
    expect(handOverFromAgent(4)).toEqual({ promptId: null, chatbot: false, queueId: 4 });
  });

  it('an integration hands over into its queue, or closes the ticket and keeps the queue', () => {
    const letGo = { useIntegration: false, integrationId: null, chatbot: false };
    expect(handOverFromIntegration({ queueId: 3 })).toEqual({ ...letGo, queueId: 3 });
    expect(handOverFromIntegration({})).toEqual(letGo);
    expect(handOverFromIntegration({ close: true, queueId: 3 })).toEqual({
      ...letGo,
      status: 'closed',
    });
  });

  it('the timers move a waiting ticket to the transfer queue and close an idle one, bots with it', () => {
    expect(timedTransfer(8, now)).toEqual({
      queueId: 8,
      chatbot: false,
      queueOptionId: null,
      updatedAt: now,
    });
    expect(closeInactive(now)).toEqual({
      status: 'closed',
      useIntegration: false,
      integrationId: null,
      promptId: null,
      chatbot: false,
      updatedAt: now,
    });
  });
});
