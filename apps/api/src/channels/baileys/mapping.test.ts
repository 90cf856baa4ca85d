import { describe, expect, it } from 'vitest';
import {
  DisconnectReason,
  proto,
  WAMessageStatus,
  WAMessageStubType,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
import {
  backoffDelay,
  mapAck,
  mapConnectionUpdate,
  mapDisconnect,
  mapMessage,
  mapPresence,
  mapProtocol,
  mapReaction,
  toDate,
  unresolvedLids,
} from './mapping';

const CONTACT = '5511988887777@s.whatsapp.net';
const CONTACT_LID = '123456789012345@lid';
const GROUP = '120363025246125486@g.us';
const T = 1_700_000_000;

// A message as Baileys hands it to messages.upsert: a proto WebMessageInfo plus v7 key fields.
const wa = (
  message: proto.IMessage | null,
  key: Partial<WAMessageKey> = {},
  extra: Partial<proto.IWebMessageInfo> = {},
): WAMessage => {
  const built = proto.WebMessageInfo.fromObject({
    key: { remoteJid: CONTACT, fromMe: false, id: '3EB0C0FFEE', ...key },
    message,
    messageTimestamp: T,
    pushName: 'Ana',
    ...extra,
  }) as WAMessage;
  built.key = { ...built.key, ...key };
  return built;
};

const boom = (statusCode: number) => Object.assign(new Error('closed'), { output: { statusCode } });

describe('mapConnectionUpdate', () => {
  it('reads a QR, an open and a close with its status code', () => {
    expect(mapConnectionUpdate({ qr: '2@abc' })).toEqual({ kind: 'qr', qr: '2@abc' });
    expect(mapConnectionUpdate({ connection: 'open' })).toEqual({ kind: 'open' });
    expect(
      mapConnectionUpdate({
        connection: 'close',
        lastDisconnect: { error: boom(DisconnectReason.loggedOut), date: new Date() },
      }),
    ).toEqual({ kind: 'close', statusCode: 401, message: 'closed' });
  });

  it('has no status code for a plain error, and ignores the rest', () => {
    expect(
      mapConnectionUpdate({
        connection: 'close',
        lastDisconnect: { error: new Error('boom'), date: new Date() },
      }),
    ).toEqual({ kind: 'close', statusCode: undefined, message: 'boom' });
    expect(mapConnectionUpdate({ connection: 'connecting', qr: undefined })).toEqual({
      kind: 'none',
    });
    expect(mapConnectionUpdate({ receivedPendingNotifications: true })).toEqual({ kind: 'none' });
  });
});

describe('mapDisconnect', () => {
  const afterOpen = { wasOpen: true, waitingForScan: false, replaced: 0 };
  const waitingForQr = { wasOpen: false, waitingForScan: true, replaced: 0 };

  it('forgets the pairing and stops when logged out from the phone', () => {
    expect(mapDisconnect(DisconnectReason.loggedOut, afterOpen)).toEqual({
      status: 'DISCONNECTED',
      reconnect: 'never',
      clearAuth: true,
      clearQr: true,
      reason: 'loggedOut',
      cause: 'logged_out',
    });
  });

  it('keeps the pairing on a bad session (500 also means any unknown stream error) and retries', () => {
    expect(mapDisconnect(DisconnectReason.badSession, afterOpen)).toMatchObject({
      status: 'TIMEOUT',
      reconnect: 'backoff',
      clearAuth: false,
    });
  });

  it('forgets the pairing on a multi-device mismatch and forbidden (the number refused: banned)', () => {
    for (const [code, cause] of [
      [DisconnectReason.multideviceMismatch, 'logged_out'],
      [DisconnectReason.forbidden, 'banned'],
    ] as const) {
      expect(mapDisconnect(code, afterOpen)).toMatchObject({
        status: 'DISCONNECTED',
        reconnect: 'never',
        clearAuth: true,
        cause,
      });
    }
  });

  it('reconnects at once when WhatsApp asks for a restart after pairing', () => {
    expect(mapDisconnect(DisconnectReason.restartRequired, waitingForQr)).toEqual({
      reconnect: 'now',
      clearAuth: false,
      clearQr: false,
      reason: 'restartRequired',
    });
  });

  it('takes a replaced session back once, then stops', () => {
    expect(mapDisconnect(DisconnectReason.connectionReplaced, afterOpen)).toMatchObject({
      status: 'TIMEOUT',
      reconnect: 'backoff',
      clearAuth: false,
      cause: 'replaced',
    });
    expect(
      mapDisconnect(DisconnectReason.connectionReplaced, { ...afterOpen, replaced: 1 }),
    ).toMatchObject({
      status: 'DISCONNECTED',
      reconnect: 'never',
      clearAuth: false,
      cause: 'replaced',
    });
  });

  it('gives up without reconnecting when the QR codes ran out unscanned', () => {
    expect(mapDisconnect(DisconnectReason.timedOut, waitingForQr)).toEqual({
      status: 'DISCONNECTED',
      reconnect: 'never',
      clearAuth: false,
      clearQr: true,
      reason: 'qrTimeout',
      cause: 'qr_timeout',
    });
  });

  it('reports TIMEOUT and retries with backoff when an open connection drops', () => {
    for (const code of [
      DisconnectReason.connectionClosed,
      DisconnectReason.connectionLost,
      DisconnectReason.timedOut,
      DisconnectReason.unavailableService,
      undefined,
    ]) {
      expect(mapDisconnect(code, afterOpen)).toMatchObject({
        status: 'TIMEOUT',
        reconnect: 'backoff',
        clearAuth: false,
        cause: 'network',
      });
    }
    // A paired session that could not reach WhatsApp (no QR on screen) keeps retrying too.
    expect(
      mapDisconnect(DisconnectReason.timedOut, { ...waitingForQr, waitingForScan: false }),
    ).toMatchObject({ status: 'TIMEOUT', reconnect: 'backoff' });
  });
});

describe('backoffDelay', () => {
  const middle = () => 0.5;

  it('doubles from one second and stops at sixty', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffDelay(n, middle))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('spreads each delay by 20 % either way, never beyond the cap', () => {
    expect(backoffDelay(2, () => 0)).toBe(3_200);
    expect(backoffDelay(2, () => 1)).toBe(4_800);
    expect(backoffDelay(10, () => 0)).toBe(48_000);
    expect(backoffDelay(10, () => 1)).toBe(60_000);
  });
});

describe('mapMessage', () => {
  it('maps a text message from a contact', () => {
    expect(mapMessage(wa({ conversation: 'Hola' }))).toEqual({
      providerId: '3EB0C0FFEE',
      from: '5511988887777',
      contactName: 'Ana',
      body: 'Hola',
      mediaType: 'chat',
      isGroup: false,
      fromMe: false,
      timestamp: new Date(T * 1000),
      raw: expect.objectContaining({ key: expect.objectContaining({ id: '3EB0C0FFEE' }) }),
    });
  });

  it('maps an extended text reply with the quoted message id', () => {
    const msg = wa({
      extendedTextMessage: {
        text: 'Sí, ese',
        contextInfo: { stanzaId: 'QUOTED1', participant: CONTACT },
      },
    });
    expect(mapMessage(msg)).toMatchObject({
      body: 'Sí, ese',
      mediaType: 'chat',
      quotedId: 'QUOTED1',
    });
  });

  it('normalises a Brazilian number still registered without the ninth digit', () => {
    expect(
      mapMessage(wa({ conversation: 'oi' }, { remoteJid: '551188887777@s.whatsapp.net' })),
    ).toMatchObject({ from: '5511988887777' });
  });

  it("normalises a Mexican number still registered with the old mobile '1'", () => {
    expect(
      mapMessage(wa({ conversation: 'hola' }, { remoteJid: '5215512345678@s.whatsapp.net' })),
    ).toMatchObject({ from: '525512345678' });
  });

  it('maps images, videos, voice notes, documents and stickers with their files', () => {
    const image = mapMessage(
      wa({ imageMessage: { caption: 'Foto', mimetype: 'image/jpeg', mediaKey: Buffer.from([1]) } }),
    );
    expect(image).toMatchObject({
      body: 'Foto',
      mediaType: 'image',
      media: { mimetype: 'image/jpeg' },
    });

    expect(mapMessage(wa({ videoMessage: { mimetype: 'video/mp4' } }))).toMatchObject({
      body: '',
      mediaType: 'video',
      media: { mimetype: 'video/mp4' },
    });

    expect(
      mapMessage(wa({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true } })),
    ).toMatchObject({
      body: '',
      mediaType: 'audio',
      media: { mimetype: 'audio/ogg; codecs=opus' },
    });

    expect(
      mapMessage(wa({ documentMessage: { fileName: 'factura.pdf', mimetype: 'application/pdf' } })),
    ).toMatchObject({
      body: 'factura.pdf',
      mediaType: 'application',
      media: { fileName: 'factura.pdf', mimetype: 'application/pdf' },
    });

    expect(
      mapMessage(
        wa({
          documentWithCaptionMessage: {
            message: {
              documentMessage: {
                fileName: 'contrato.pdf',
                mimetype: 'application/pdf',
                caption: 'Firmado',
              },
            },
          },
        }),
      ),
    ).toMatchObject({
      body: 'Firmado',
      mediaType: 'application',
      media: { fileName: 'contrato.pdf' },
    });

    expect(mapMessage(wa({ stickerMessage: { mimetype: 'image/webp' } }))).toMatchObject({
      mediaType: 'image',
      media: { mimetype: 'image/webp' },
    });
  });

  it('maps a location with its name and address, and a live location', () => {
    expect(
      mapMessage(
        wa({
          locationMessage: {
            degreesLatitude: -23.5505,
            degreesLongitude: -46.6333,
            name: 'Loja Centro',
            address: 'Praça da Sé, São Paulo',
          },
        }),
      ),
    ).toMatchObject({
      mediaType: 'locationMessage',
      body: '-23.5505,-46.6333\nLoja Centro\nPraça da Sé, São Paulo',
    });
    expect(
      mapMessage(wa({ liveLocationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.25 } })),
    ).toMatchObject({ mediaType: 'locationMessage', body: '1.5,2.25' });
  });

  it('maps shared contacts to their vCards', () => {
    const ana =
      'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD';
    const beto = 'BEGIN:VCARD\nVERSION:3.0\nFN:Beto\nEND:VCARD';
    expect(mapMessage(wa({ contactMessage: { displayName: 'Ana', vcard: ana } }))).toMatchObject({
      mediaType: 'vcard',
      body: ana,
    });
    expect(
      mapMessage(
        wa({
          contactsArrayMessage: {
            displayName: '2 contacts',
            contacts: [{ vcard: ana }, { vcard: beto }],
          },
        }),
      ),
    ).toMatchObject({ mediaType: 'vcard', body: `${ana}\n${beto}` });
  });

  it('maps missed calls and call logs', () => {
    expect(
      mapMessage(wa(null, {}, { messageStubType: WAMessageStubType.CALL_MISSED_VIDEO })),
    ).toMatchObject({ mediaType: 'call_log', body: 'Videollamada perdida' });
    expect(
      mapMessage(
        wa({
          callLogMesssage: {
            isVideo: false,
            callOutcome: proto.Message.CallLogMessage.CallOutcome.MISSED,
          },
        }),
      ),
    ).toMatchObject({ mediaType: 'call_log', body: 'Llamada de voz perdida' });
  });

  it('unwraps disappearing, view-once and edited wrappers', () => {
    expect(
      mapMessage(wa({ ephemeralMessage: { message: { conversation: 'efímero' } } })),
    ).toMatchObject({ body: 'efímero', mediaType: 'chat' });
    expect(
      mapMessage(
        wa({
          viewOnceMessageV2: {
            message: { imageMessage: { mimetype: 'image/jpeg', caption: 'una vez' } },
          },
        }),
      ),
    ).toMatchObject({ body: 'una vez', mediaType: 'image' });
    expect(
      mapMessage(
        wa({
          ephemeralMessage: {
            message: { viewOnceMessage: { message: { videoMessage: { mimetype: 'video/mp4' } } } },
          },
        }),
      ),
    ).toMatchObject({ mediaType: 'video' });
    // An edit Baileys folded into the original message while buffering.
    expect(
      mapMessage(wa({ editedMessage: { message: { conversation: 'corregido' } } })),
    ).toMatchObject({ body: 'corregido', providerId: '3EB0C0FFEE' });
  });

  it('maps a group message with its author normalised', () => {
    const msg = wa(
      { conversation: 'Buen día' },
      { remoteJid: GROUP, participant: '551188887777:4@s.whatsapp.net' },
    );
    expect(mapMessage(msg)).toMatchObject({
      from: GROUP,
      isGroup: true,
      participant: '5511988887777',
      body: 'Buen día',
    });
  });

  it('uses the phone number next to a LID-addressed chat and keeps the LID', () => {
    const msg = wa({ conversation: 'hi' }, { remoteJid: CONTACT_LID, remoteJidAlt: CONTACT });
    expect(mapMessage(msg)).toMatchObject({ from: '5511988887777', lid: CONTACT_LID });
    const pnFirst = wa({ conversation: 'hi' }, { remoteJid: CONTACT, remoteJidAlt: CONTACT_LID });
    expect(mapMessage(pnFirst)).toMatchObject({ from: '5511988887777', lid: CONTACT_LID });
  });

  it('resolves a bare LID through the lookup, or reports the LID itself', () => {
    const msg = wa({ conversation: 'hi' }, { remoteJid: '123456789012345:2@lid' });
    expect(mapMessage(msg)).toMatchObject({ from: CONTACT_LID, lid: CONTACT_LID });
    expect(
      mapMessage(msg, (lid) => (lid === CONTACT_LID ? '5511988887777@s.whatsapp.net' : undefined)),
    ).toMatchObject({ from: '5511988887777', lid: CONTACT_LID });
    expect(unresolvedLids(msg.key)).toEqual([CONTACT_LID]);
    expect(unresolvedLids({ remoteJid: CONTACT_LID, remoteJidAlt: CONTACT })).toEqual([]);
  });

  it('uses participantAlt for a group member known only by LID', () => {
    const msg = wa(
      { conversation: 'hola grupo' },
      { remoteJid: GROUP, participant: '98765@lid', participantAlt: CONTACT },
    );
    expect(mapMessage(msg)).toMatchObject({
      from: GROUP,
      participant: '5511988887777',
      lid: '98765@lid',
    });
    const bare = wa({ conversation: 'x' }, { remoteJid: GROUP, participant: '98765@lid' });
    expect(mapMessage(bare)).toMatchObject({ participant: '98765@lid', lid: '98765@lid' });
    expect(unresolvedLids(bare.key)).toEqual(['98765@lid']);
  });

  it('marks messages sent from the phone as fromMe, without a contact name or the alt of us', () => {
    const msg = wa(
      { conversation: 'Enviado del celular' },
      { remoteJid: CONTACT_LID, remoteJidAlt: '5511900001111@s.whatsapp.net', fromMe: true },
      { pushName: 'Loja' },
    );
    const mapped = mapMessage(msg, () => CONTACT);
    expect(mapped).toMatchObject({ fromMe: true, from: '5511988887777', lid: CONTACT_LID });
    expect(mapped?.contactName).toBeUndefined();
  });

  it('reads the timestamp as a Long, a number, or the JSON forms of a Long', () => {
    const msg = wa({ conversation: 'x' });
    // proto.fromObject turns the seconds into a protobuf Long.
    expect(typeof msg.messageTimestamp).toBe('object');
    expect(mapMessage(msg)?.timestamp).toEqual(new Date(T * 1000));
    expect(toDate(T)).toEqual(new Date(T * 1000));
    expect(
      toDate({ low: T, high: 0, unsigned: true } as unknown as WAMessage['messageTimestamp']),
    ).toEqual(new Date(T * 1000));
    expect(toDate(String(T))).toEqual(new Date(T * 1000));
  });

  it('ignores statuses, reactions, protocol messages, stubs and empty messages', () => {
    expect(mapMessage(wa({ conversation: 'story' }, { remoteJid: 'status@broadcast' }))).toBeNull();
    expect(
      mapMessage(wa({ reactionMessage: { key: { remoteJid: CONTACT, id: 'X' }, text: '👍' } })),
    ).toBeNull();
    expect(
      mapMessage(
        wa({
          protocolMessage: {
            key: { remoteJid: CONTACT, id: 'X' },
            type: proto.Message.ProtocolMessage.Type.REVOKE,
          },
        }),
      ),
    ).toBeNull();
    expect(
      mapMessage(wa(null, {}, { messageStubType: WAMessageStubType.GROUP_PARTICIPANT_ADD })),
    ).toBeNull();
    expect(mapMessage(wa(null, {}, { messageStubType: WAMessageStubType.CIPHERTEXT }))).toBeNull();
    expect(mapMessage(wa(null))).toBeNull();
    expect(mapMessage(wa({ conversation: '' }))).toBeNull();
    expect(
      mapMessage(wa({ senderKeyDistributionMessage: { groupId: GROUP } }, { remoteJid: GROUP })),
    ).toBeNull();
    expect(
      mapMessage(wa({ conversation: 'news' }, { remoteJid: '120363000000000000@newsletter' })),
    ).toBeNull();
  });

  it('keeps the whole message in raw, as a plain copy', () => {
    const msg = wa(
      { imageMessage: { mimetype: 'image/jpeg', mediaKey: Buffer.from([9, 9]) } },
      { remoteJidAlt: CONTACT_LID },
    );
    const raw = mapMessage(msg)?.raw as unknown as WAMessage;
    expect(raw.key.remoteJidAlt).toBe(CONTACT_LID);
    expect(raw.message?.imageMessage?.mediaKey).toEqual(Buffer.from([9, 9]));
  });
});

describe('mapProtocol', () => {
  it('reads a revoke from the protocol message', () => {
    const msg = wa({
      protocolMessage: {
        key: { remoteJid: CONTACT, id: 'ORIGINAL', fromMe: false },
        type: proto.Message.ProtocolMessage.Type.REVOKE,
      },
    });
    expect(mapProtocol(msg)).toEqual({ type: 'revoke', providerId: 'ORIGINAL' });
  });

  it('reads an edit as phones send it: an editedMessage around a MESSAGE_EDIT', () => {
    const msg = wa({
      editedMessage: {
        message: {
          protocolMessage: {
            key: { remoteJid: CONTACT, id: 'ORIGINAL' },
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            editedMessage: { extendedTextMessage: { text: 'texto nuevo' } },
          },
        },
      },
    });
    expect(mapMessage(msg)).toBeNull();
    expect(mapProtocol(msg)).toEqual({ type: 'edit', providerId: 'ORIGINAL', body: 'texto nuevo' });
  });

  it('reads the edit and the revoke Baileys reports in messages.update', () => {
    expect(
      mapProtocol({
        key: { remoteJid: CONTACT, id: 'ORIGINAL' },
        message: { editedMessage: { message: { conversation: 'nuevo' } } },
      }),
    ).toEqual({ type: 'edit', providerId: 'ORIGINAL', body: 'nuevo' });
    expect(
      mapProtocol({
        key: { remoteJid: CONTACT, id: 'ORIGINAL' },
        message: null,
        messageStubType: WAMessageStubType.REVOKE,
      }),
    ).toEqual({ type: 'revoke', providerId: 'ORIGINAL' });
  });

  it('ignores ordinary messages and other protocol messages', () => {
    expect(mapProtocol(wa({ conversation: 'hola' }))).toBeNull();
    expect(
      mapProtocol(
        wa({
          protocolMessage: {
            type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING,
            ephemeralExpiration: 86400,
          },
        }),
      ),
    ).toBeNull();
    expect(
      mapProtocol({ key: { id: 'X' }, message: { conversation: 'reuploaded media' } }),
    ).toBeNull();
  });
});

describe('mapAck', () => {
  const mine = { remoteJid: CONTACT, id: 'SENT1', fromMe: true };

  it('maps each message status to the SPEC ack', () => {
    const cases: [number, number][] = [
      [WAMessageStatus.PENDING, 1],
      [WAMessageStatus.SERVER_ACK, 2],
      [WAMessageStatus.DELIVERY_ACK, 3],
      [WAMessageStatus.READ, 4],
      [WAMessageStatus.PLAYED, 5],
    ];
    for (const [status, ack] of cases) {
      expect(mapAck({ key: mine, update: { status } })).toEqual({
        type: 'ack',
        providerId: 'SENT1',
        ack,
      });
    }
  });

  it('reports a failed send with its error', () => {
    expect(
      mapAck({
        key: mine,
        update: { status: WAMessageStatus.ERROR, messageStubParameters: ['463'] },
      }),
    ).toEqual({ type: 'ack', providerId: 'SENT1', ack: 0, error: '463' });
  });

  it('maps group receipts to delivered, read and played', () => {
    const receipt = (r: proto.IUserReceipt) =>
      mapAck({ key: mine, receipt: { userJid: CONTACT, ...r } });
    expect(receipt({ receiptTimestamp: T })).toMatchObject({ ack: 3 });
    expect(receipt({ receiptTimestamp: T, readTimestamp: T })).toMatchObject({ ack: 4 });
    expect(receipt({ playedTimestamp: T })).toMatchObject({ ack: 5 });
    expect(receipt({})).toBeNull();
  });

  it('ignores updates without a status and receipts of messages we received', () => {
    expect(mapAck({ key: mine, update: { starred: true } })).toBeNull();
    expect(
      mapAck({ key: { ...mine, fromMe: false }, update: { status: WAMessageStatus.READ } }),
    ).toBeNull();
  });
});

describe('mapPresence', () => {
  it('reports typing while composing or recording, and stops otherwise', () => {
    const at = (
      lastKnownPresence: 'composing' | 'recording' | 'paused' | 'available' | 'unavailable',
    ) => mapPresence({ id: CONTACT, presences: { [CONTACT]: { lastKnownPresence } } });
    expect(at('composing')).toEqual({ type: 'typing', from: '5511988887777', typing: true });
    expect(at('recording')).toMatchObject({ typing: true });
    expect(at('paused')).toMatchObject({ typing: false });
    expect(at('available')).toMatchObject({ typing: false });
    expect(at('unavailable')).toMatchObject({ typing: false });
  });

  it('names groups by id and LID chats through the lookup', () => {
    expect(
      mapPresence({
        id: GROUP,
        presences: {
          a: { lastKnownPresence: 'paused' },
          b: { lastKnownPresence: 'composing' },
        },
      }),
    ).toEqual({ type: 'typing', from: GROUP, typing: true });
    expect(
      mapPresence(
        { id: CONTACT_LID, presences: { [CONTACT_LID]: { lastKnownPresence: 'composing' } } },
        () => CONTACT,
      ),
    ).toMatchObject({ from: '5511988887777' });
    expect(mapPresence({ id: CONTACT, presences: {} })).toBeNull();
  });
});

describe('mapReaction', () => {
  const reaction = (
    text: string,
    target: Partial<WAMessageKey> = {},
    ms: number | null = 1_700_000_123_456,
  ) =>
    ({
      reactionMessage: {
        key: { remoteJid: CONTACT, fromMe: true, id: '3EB0TARGET', ...target },
        text,
        ...(ms === null ? {} : { senderTimestampMs: ms }),
      },
    }) as proto.IMessage;

  it('reports the contact’s reaction on the message it points at, at WhatsApp’s millisecond', () => {
    expect(mapReaction(wa(reaction('👍')))).toEqual({
      type: 'reaction',
      providerId: '3EB0TARGET',
      from: '5511988887777',
      fromMe: false,
      emoji: '👍',
      timestamp: new Date(1_700_000_123_456),
    });
    // Taken back: the empty text; without a time of its own, the message's.
    expect(mapReaction(wa(reaction('', {}, null)))).toMatchObject({
      emoji: '',
      timestamp: new Date(T * 1000),
    });
  });

  it('names the member in groups, and our own number’s reactions from the phone', () => {
    expect(
      mapReaction(
        wa(reaction('❤️', { remoteJid: GROUP }), {
          remoteJid: GROUP,
          participant: '551188887777:4@s.whatsapp.net',
        }),
      ),
    ).toMatchObject({ from: GROUP, participant: '5511988887777', fromMe: false, emoji: '❤️' });
    expect(mapReaction(wa(reaction('🙏'), { fromMe: true }))).toMatchObject({
      fromMe: true,
      emoji: '🙏',
    });
  });

  it('ignores what is not one emoji, statuses and other messages', () => {
    expect(mapReaction(wa(reaction('hola')))).toBeNull();
    expect(mapReaction(wa(reaction('👍👍')))).toBeNull();
    expect(mapReaction(wa(reaction('👍'), { remoteJid: 'status@broadcast' }))).toBeNull();
    expect(mapReaction(wa({ conversation: 'hola' }))).toBeNull();
  });
});
