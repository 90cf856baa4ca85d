import { describe, expect, it } from 'vitest';
import { outboxQueue, type OutboxPayload } from './sends';

// A send's job carries what the message row does not (the file's details, a Cloud API template):
// the queue's schema must hand all of it back to the outbox, not a stripped copy.
describe('the outbox queue’s payload', () => {
  it('parses back to what was queued, every field of the media and the template kept', () => {
    const media = {
      storedName: 'a1b2.pdf',
      fileName: 'factura.pdf',
      mimetype: 'application/pdf',
      mediaType: 'application' as const,
    };
    const payload: OutboxPayload = {
      messageId: 12,
      media,
      template: {
        name: 'pedido_listo',
        language: 'es',
        header: [{ name: 'tienda', value: 'Centro' }],
        body: [{ name: '1', value: 'Ana' }],
        headerMedia: media,
      },
    };
    expect(outboxQueue.payload.parse(payload)).toEqual(payload);
    expect(outboxQueue.payload.parse({ messageId: 3, media: null })).toEqual({
      messageId: 3,
      media: null,
    });
  });

  it('refuses a send without its message', () => {
    expect(outboxQueue.payload.safeParse({ media: null }).success).toBe(false);
  });
});
