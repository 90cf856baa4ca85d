import { describe, expect, it } from 'vitest';
import { applyAck } from '../acks';
import type { ChannelEvent, InboundMessage } from '../driver';
import { mapWebhook, mediaIdOf, phoneNumberIdsOf, WebhookPayloadError } from './payloads';

// Samples follow Meta's documented webhook payloads for the Cloud API ("messages" field).

const PHONE_ID = '106540352242922';
const CUSTOMER = '16315551234';

const envelope = (value: Record<string, unknown>, phoneNumberId = PHONE_ID) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
            ...value,
          },
        },
      ],
    },
  ],
});

const inbound = (message: Record<string, unknown>, name = 'Kerry Fisher') =>
  envelope({
    contacts: [{ profile: { name }, wa_id: CUSTOMER }],
    messages: [
      {
        from: CUSTOMER,
        id: 'wamid.HBgLMTY0NjcwNDM1OTUVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        timestamp: '1749416383',
        ...message,
      },
    ],
  });

const status = (id: string, value: string, extra: Record<string, unknown> = {}) => ({
  id,
  status: value,
  timestamp: '1750263773',
  recipient_id: CUSTOMER,
  ...extra,
});

const messagesOf = (payload: unknown): InboundMessage[] =>
  mapWebhook(payload).flatMap((g) =>
    g.events.flatMap((e) => (e.type === 'message' ? [e.message] : [])),
  );
const only = (payload: unknown) => {
  const messages = messagesOf(payload);
  expect(messages).toHaveLength(1);
  return messages[0];
};

describe('mapWebhook: messages', () => {
  it('maps a text message with sender, name and time', () => {
    const m = only(inbound({ type: 'text', text: { body: 'Does it come in another color?' } }));
    expect(m).toMatchObject({
      providerId: 'wamid.HBgLMTY0NjcwNDM1OTUVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
      from: CUSTOMER,
      contactName: 'Kerry Fisher',
      body: 'Does it come in another color?',
      mediaType: 'chat',
      isGroup: false,
      fromMe: false,
    });
    expect(m.timestamp.toISOString()).toBe('2025-06-08T20:59:43.000Z');
    expect(m.media).toBeUndefined();
    expect(m.quotedId).toBeUndefined();
  });

  it("takes a Mexican sender reported with the old mobile '1' as 52 and the 10 digits", () => {
    const payload = envelope({
      contacts: [{ profile: { name: 'Lupita' }, wa_id: '5215512345678' }],
      messages: [
        {
          from: '5215512345678',
          id: 'wamid.MX1',
          timestamp: '1749416383',
          type: 'text',
          text: { body: 'Hola' },
        },
      ],
    });
    expect(only(payload)).toMatchObject({ from: '525512345678', contactName: 'Lupita' });
  });

  it('keeps the quoted message id of a reply', () => {
    const m = only(
      inbound({
        type: 'text',
        text: { body: 'This one' },
        context: { from: '15550783881', id: 'wamid.QUOTED==' },
      }),
    );
    expect(m.quotedId).toBe('wamid.QUOTED==');
  });

  it('maps images, stickers, voice notes, videos and documents with caption and media id', () => {
    const image = only(
      inbound({
        type: 'image',
        image: {
          caption: 'Blue one',
          mime_type: 'image/jpeg',
          sha256: 'abc',
          id: '1003383421387256',
        },
      }),
    );
    expect(image).toMatchObject({
      mediaType: 'image',
      body: 'Blue one',
      media: { mimetype: 'image/jpeg' },
    });
    expect(mediaIdOf(image.raw)).toBe('1003383421387256');

    const sticker = only(
      inbound({
        type: 'sticker',
        sticker: { mime_type: 'image/webp', sha256: 'x', id: '7', animated: false },
      }),
    );
    expect(sticker).toMatchObject({
      mediaType: 'image',
      body: '',
      media: { mimetype: 'image/webp' },
    });
    expect(mediaIdOf(sticker.raw)).toBe('7');

    const voice = only(
      inbound({
        type: 'audio',
        audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 'x', id: '8', voice: true },
      }),
    );
    expect(voice).toMatchObject({
      mediaType: 'audio',
      media: { mimetype: 'audio/ogg; codecs=opus' },
    });
    expect(mediaIdOf(voice.raw)).toBe('8');

    const video = only(
      inbound({ type: 'video', video: { caption: 'Look', mime_type: 'video/mp4', id: '9' } }),
    );
    expect(video).toMatchObject({ mediaType: 'video', body: 'Look' });

    const document = only(
      inbound({
        type: 'document',
        document: {
          caption: 'Invoice',
          filename: 'invoice-123.pdf',
          mime_type: 'application/pdf',
          sha256: 'x',
          id: '10',
        },
      }),
    );
    expect(document).toMatchObject({
      mediaType: 'application',
      body: 'Invoice',
      media: { fileName: 'invoice-123.pdf', mimetype: 'application/pdf' },
    });
    expect(mediaIdOf(document.raw)).toBe('10');
  });

  it('maps a location to "lat,lng" followed by its name and address', () => {
    const m = only(
      inbound({
        type: 'location',
        location: {
          address: '1 Hacker Way, Menlo Park, CA 94025',
          latitude: 37.483307,
          longitude: -122.148981,
          name: 'Meta Headquarters',
          url: 'https://meta.com',
        },
      }),
    );
    expect(m.mediaType).toBe('locationMessage');
    expect(m.body).toBe(
      '37.483307,-122.148981\nMeta Headquarters\n1 Hacker Way, Menlo Park, CA 94025',
    );
    expect(
      only(inbound({ type: 'location', location: { latitude: -23.5, longitude: -46.6 } })).body,
    ).toBe('-23.5,-46.6');
  });

  it('turns shared contacts into vCard text', () => {
    const m = only(
      inbound({
        type: 'contacts',
        contacts: [
          {
            name: {
              first_name: 'Barbara',
              last_name: 'Johnson',
              formatted_name: 'Barbara J. Johnson',
            },
            org: { company: 'Social Media Inc.' },
            phones: [{ phone: '+1 (940) 555-1234', wa_id: '19405551234', type: 'HOME' }],
            emails: [{ email: 'bjohnson@example.com', type: 'WORK' }],
          },
        ],
      }),
    );
    expect(m.mediaType).toBe('vcard');
    expect(m.body.split('\n')).toEqual([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Johnson;Barbara;;;',
      'FN:Barbara J. Johnson',
      'ORG:Social Media Inc.',
      'TEL;type=HOME;waid=19405551234:+1 (940) 555-1234',
      'EMAIL:bjohnson@example.com',
      'END:VCARD',
    ]);
  });

  it('maps button and list replies and template quick replies to their titles', () => {
    const button = only(
      inbound({
        type: 'interactive',
        interactive: {
          type: 'button_reply',
          button_reply: { id: 'opt-1', title: 'Talk to sales' },
        },
        context: { from: '15550783881', id: 'wamid.MENU' },
      }),
    );
    expect(button).toMatchObject({
      mediaType: 'chat',
      body: 'Talk to sales',
      quotedId: 'wamid.MENU',
    });
    const list = only(
      inbound({
        type: 'interactive',
        interactive: {
          type: 'list_reply',
          list_reply: { id: 'row-2', title: 'Billing', description: 'Invoices' },
        },
      }),
    );
    expect(list.body).toBe('Billing');
    const template = only(
      inbound({ type: 'button', button: { payload: 'STOP', text: 'Stop promotions' } }),
    );
    expect(template).toMatchObject({ mediaType: 'chat', body: 'Stop promotions' });
  });

  it('reports reactions on the message they point at, not as messages', () => {
    const events = (payload: unknown) => mapWebhook(payload).flatMap((g) => g.events);
    expect(
      events(inbound({ type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } })),
    ).toEqual([
      {
        type: 'reaction',
        providerId: 'wamid.X',
        from: CUSTOMER,
        fromMe: false,
        emoji: '👍',
        timestamp: new Date(1749416383 * 1000),
      },
    ]);
    // Meta sends a removal without an emoji.
    expect(
      events(inbound({ type: 'reaction', reaction: { message_id: 'wamid.X' } })),
    ).toMatchObject([{ type: 'reaction', emoji: '' }]);
    expect(
      events(inbound({ type: 'reaction', reaction: { message_id: 'wamid.X', emoji: 'no' } })),
    ).toEqual([]);
    expect(() => mapWebhook(inbound({ type: 'reaction' }))).toThrow(WebhookPayloadError);
  });

  it('shows unsupported messages as a note', () => {
    const m = only(
      inbound({
        type: 'unsupported',
        errors: [
          {
            code: 131051,
            title: 'Message type unknown',
            message: 'Message type unknown',
            error_data: { details: 'Message type is currently not supported.' },
          },
        ],
      }),
    );
    expect(m).toMatchObject({ mediaType: 'chat', body: '[Message type unknown]' });
  });

  it('normalises the sender and finds the name among several contacts', () => {
    const payload = envelope({
      contacts: [
        { profile: { name: 'Ana' }, wa_id: '5511988887777' },
        { profile: { name: 'Kerry' }, wa_id: CUSTOMER },
      ],
      messages: [
        {
          from: CUSTOMER,
          id: 'wamid.1',
          timestamp: '1749416383',
          type: 'text',
          text: { body: 'hi' },
        },
        // Brazilian mobiles may arrive without the ninth digit; one person keeps one number.
        {
          from: '551188887777',
          id: 'wamid.2',
          timestamp: '1749416384',
          type: 'text',
          text: { body: 'oi' },
        },
      ],
    });
    expect(messagesOf(payload).map((m) => [m.from, m.contactName])).toEqual([
      [CUSTOMER, 'Kerry'],
      ['5511988887777', 'Ana'],
    ]);
  });
});

describe('mapWebhook: statuses', () => {
  it('maps sent, delivered and read, and a failure with its reason', () => {
    const payload = envelope({
      statuses: [
        status('wamid.A', 'sent', { conversation: { id: 'c1', origin: { type: 'service' } } }),
        status('wamid.A', 'delivered'),
        status('wamid.A', 'read'),
        status('wamid.B', 'failed', {
          errors: [
            {
              code: 131047,
              title: 'Re-engagement message',
              message: 'Re-engagement message',
              error_data: {
                details: 'Message failed to send because more than 24 hours have passed.',
              },
            },
          ],
        }),
        status('wamid.C', 'deleted'),
      ],
    });
    expect(mapWebhook(payload)).toEqual([
      {
        phoneNumberId: PHONE_ID,
        events: [
          { type: 'ack', providerId: 'wamid.A', ack: 2 },
          { type: 'ack', providerId: 'wamid.A', ack: 3 },
          { type: 'ack', providerId: 'wamid.A', ack: 4 },
          {
            type: 'ack',
            providerId: 'wamid.B',
            ack: 0,
            error:
              'Re-engagement message (131047): Message failed to send because more than 24 hours have passed.',
          },
        ],
      },
    ]);
  });

  it('reaches the right ack whatever order and however often statuses arrive', () => {
    const arrivals = envelope({
      statuses: [
        status('wamid.A', 'read'),
        status('wamid.A', 'delivered'),
        status('wamid.A', 'sent'),
        status('wamid.A', 'read'),
        status('wamid.B', 'delivered'),
        status('wamid.B', 'failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] }),
        status('wamid.C', 'sent'),
        status('wamid.C', 'failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] }),
      ],
    });
    const acks = new Map<string, number>();
    for (const event of mapWebhook(arrivals)[0].events)
      if (event.type === 'ack')
        acks.set(event.providerId, applyAck(acks.get(event.providerId) ?? 1, event.ack));
    expect(Object.fromEntries(acks)).toEqual({ 'wamid.A': 4, 'wamid.B': 3, 'wamid.C': 0 });
  });
});

describe('mapWebhook: batches and bad input', () => {
  it('groups a batch of entries and changes by phone number, keeping payload order', () => {
    const other = '200000000000001';
    const a = envelope({
      contacts: [{ profile: { name: 'Kerry' }, wa_id: CUSTOMER }],
      messages: [
        {
          from: CUSTOMER,
          id: 'wamid.m1',
          timestamp: '1749416383',
          type: 'text',
          text: { body: 'one' },
        },
        {
          from: CUSTOMER,
          id: 'wamid.m2',
          timestamp: '1749416384',
          type: 'text',
          text: { body: 'two' },
        },
      ],
    });
    const b = envelope({ statuses: [status('wamid.s1', 'delivered')] }, other);
    const c = envelope({ statuses: [status('wamid.s2', 'read')] });
    const batch = {
      object: 'whatsapp_business_account',
      entry: [
        { id: 'WABA1', changes: [...a.entry[0].changes, ...b.entry[0].changes] },
        { id: 'WABA2', changes: c.entry[0].changes },
        // Account notifications carry no phone number and no chat events.
        {
          id: 'WABA2',
          changes: [{ field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } }],
        },
      ],
    };
    expect(phoneNumberIdsOf(batch)).toEqual([PHONE_ID, other]);
    const summary = (e: ChannelEvent) =>
      e.type === 'message'
        ? `message ${e.message.body}`
        : e.type === 'ack'
          ? `ack ${e.providerId} ${e.ack}`
          : e.type;
    expect(mapWebhook(batch).map((g) => [g.phoneNumberId, g.events.map(summary)])).toEqual([
      [PHONE_ID, ['message one', 'message two', 'ack wamid.s2 4']],
      [other, ['ack wamid.s1 3']],
    ]);
  });

  it('keeps unknown fields instead of failing on them', () => {
    const m = only(
      inbound({ type: 'text', text: { body: 'hi', future: true }, brand_new_field: { x: 1 } }),
    );
    expect(m.raw).toMatchObject({ brand_new_field: { x: 1 } });
  });

  it('answers nothing for other Meta objects', () => {
    expect(mapWebhook({ object: 'page', entry: [{ id: '1', changes: [] }] })).toEqual([]);
  });

  it('throws a clear error, never a crash, for malformed payloads', () => {
    for (const bad of [
      null,
      'text',
      [],
      {},
      { object: 'whatsapp_business_account' },
      { object: 'whatsapp_business_account', entry: 'x' },
      inbound({ type: 'text' }),
      inbound({ type: 'image', image: { caption: 'no id' } }),
      inbound({ type: 'location', location: { latitude: 'north' } }),
      envelope({ messages: [{ id: 'wamid.1', type: 'text', text: { body: 'no sender' } }] }),
      envelope({ statuses: [{ status: 'read' }] }),
    ]) {
      expect(() => mapWebhook(bad), JSON.stringify(bad)).toThrow(WebhookPayloadError);
    }
    expect(() => mapWebhook({})).toThrow(/Not a WhatsApp webhook payload \(object: .+\)/);
    expect(() => mapWebhook(inbound({ type: 'text' }))).toThrow(/type text has no text/);
  });
});
