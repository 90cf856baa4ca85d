import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dateTime, errorResponseSchema } from './responses';
import { messageViewSchema } from './tickets';

// The API's reply serializer encodes what a handler returns with the route's response schema.
describe('response schemas', () => {
  it('sends a Date or ISO text as ISO text, and refuses anything else', () => {
    const moment = z.object({ at: dateTime, until: dateTime.nullable() });
    expect(z.encode(moment, { at: new Date(0), until: null })).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      until: null,
    });
    expect(z.encode(moment, { at: '2030-01-02T03:04:05.000Z', until: new Date(1) })).toEqual({
      at: '2030-01-02T03:04:05.000Z',
      until: '1970-01-01T00:00:00.001Z',
    });
    expect(z.safeEncode(moment, { at: 0 as never, until: null }).success).toBe(false);
    expect(z.safeEncode(moment, { at: 'next week', until: null }).success).toBe(false);
  });

  it('documents moments as date-time text', () => {
    expect(
      z.toJSONSchema(z.object({ at: dateTime }), { io: 'output', unrepresentable: 'any' }),
    ).toMatchObject({ properties: { at: { type: 'string', format: 'date-time' } } });
  });

  it('drops what a schema does not name, so a view schema must name every field', () => {
    expect(
      z.encode(errorResponseSchema, {
        error: 'ERR_VALIDATION',
        message: 'Invalid body',
        extra: true,
      } as never),
    ).toEqual({ error: 'ERR_VALIDATION', message: 'Invalid body' });
  });

  it('shows a quoted message one level deep', () => {
    const message = {
      id: 2,
      ticketId: 1,
      contactId: null,
      body: 'hola',
      fromMe: true,
      read: true,
      mediaType: 'chat' as const,
      mediaUrl: null,
      mediaName: null,
      mediaError: null,
      transcript: null,
      quotedMsgId: null,
      isDeleted: false,
      isEdited: false,
      isForwarded: false,
      ack: 0,
      remoteJid: null,
      scheduled: false,
      promptId: null,
      createdAt: new Date(0),
      updatedAt: new Date(0),
      quotedMsg: null,
    };
    const quoting = { ...message, id: 3, quotedMsgId: 2, quotedMsg: message };
    expect(z.encode(messageViewSchema, quoting).quotedMsg?.createdAt).toBe(
      '1970-01-01T00:00:00.000Z',
    );
    expect(z.safeEncode(messageViewSchema, { ...quoting, quotedMsg: quoting }).success).toBe(false);
  });
});
