import { readFile } from 'node:fs/promises';
import {
  ChannelError,
  type ChannelDriver,
  type ChannelSession,
  type OutgoingMedia,
  type SendRequest,
  type SessionContext,
} from '../driver';
import { normalizeNumber } from '../numbers';
import { createGraphClient } from './graph';
import { mediaIdOf } from './payloads';

// The official WhatsApp Business Cloud API (provider 'cloud'). There is no socket to keep open:
// inbound messages and acks arrive by webhook (webhook.routes.ts → inbox.ts → manager.deliver), and a
// session only checks the credentials, sends through the Graph API and fetches media.

const notConfigured = 'The Cloud API connection needs a phone number id and an access token';

// Which Cloud API message type carries a file of this kind.
const sendTypeOf = (media: OutgoingMedia): 'image' | 'audio' | 'video' | 'document' => {
  switch (media.mediaType) {
    case 'image':
    case 'audio':
    case 'video':
      return media.mediaType;
    default:
      return 'document';
  }
};

export const cloudDriver: ChannelDriver = {
  provider: 'cloud',
  pairs: false,
  createSession(ctx: SessionContext): ChannelSession {
    const { connection, log } = ctx;
    const { cloudPhoneNumberId: phoneNumberId, cloudAccessToken: accessToken } = connection;

    const graph = () => {
      if (!phoneNumberId || !accessToken)
        throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', notConfigured);
      return createGraphClient({ phoneNumberId, accessToken, baseUrl: connection.cloudApiBaseUrl });
    };

    const mediaPayload = async (media: OutgoingMedia, caption: string) => {
      const type = sendTypeOf(media);
      const data = await readFile(media.path).catch(() => {
        throw new ChannelError('ERR_SENDING_WAPP_MSG', `The file ${media.fileName} is missing`);
      });
      // The Graph API wants the bare MIME type ('audio/ogg', not 'audio/ogg; codecs=opus').
      const mimetype = media.mimetype.split(';')[0].trim() || 'application/octet-stream';
      const { id } = await graph().uploadMedia({ data, fileName: media.fileName, mimetype });
      const file: Record<string, string> = { id };
      // Audio carries no caption on WhatsApp; the other kinds show it under the file.
      if (caption && type !== 'audio') file.caption = caption;
      if (type === 'document') file.filename = media.fileName;
      return { type, [type]: file };
    };

    return {
      async start() {
        if (!phoneNumberId || !accessToken) {
          await ctx.emit({ type: 'status', status: 'DISCONNECTED', reason: notConfigured });
          return;
        }
        try {
          const phone = await graph().getPhoneNumber();
          await ctx.emit({
            type: 'status',
            status: 'CONNECTED',
            number: normalizeNumber(phone.display_phone_number ?? ''),
          });
        } catch (error) {
          // Bad credentials or an unreachable Graph API are a state to show, not a crash.
          if (!(error instanceof ChannelError)) throw error;
          log.warn(
            { code: error.code, reason: error.message },
            'cloud api credentials check failed',
          );
          await ctx.emit({ type: 'status', status: 'DISCONNECTED', reason: error.message });
        }
      },

      // Nothing stays open between requests.
      async stop() {},

      async logout() {
        await ctx.emit({ type: 'status', status: 'DISCONNECTED', reason: 'Logged out' });
      },

      async sendMessage(request: SendRequest) {
        if (request.isGroup)
          throw new ChannelError('ERR_WAPP_INVALID_CONTACT', 'The Cloud API cannot send to groups');
        const content = request.media
          ? await mediaPayload(request.media, request.body)
          : { type: 'text', text: { body: request.body, preview_url: false } };
        const result = await graph().sendMessage({
          recipient_type: 'individual',
          to: request.to,
          ...content,
          ...(request.quotedId ? { context: { message_id: request.quotedId } } : {}),
        });
        const providerId = result.messages?.[0]?.id;
        if (!providerId)
          throw new ChannelError('ERR_SENDING_WAPP_MSG', 'The Graph API returned no message id');
        return { providerId, timestamp: new Date() };
      },

      async deleteMessage() {
        throw new ChannelError('ERR_DELETE_WAPP_MSG', 'The Cloud API cannot delete sent messages');
      },

      // Marking the latest message read marks every earlier one in the chat as read too.
      async markRead(request) {
        const last = request.providerIds.at(-1);
        if (last) await graph().markRead(last);
      },

      async downloadMedia(message) {
        const mediaId = mediaIdOf(message.raw);
        if (!mediaId)
          throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'The message carries no media id');
        const client = graph();
        const { url, mime_type } = await client.getMediaUrl(mediaId);
        const data = await client.download(url);
        return {
          data,
          mimetype: mime_type ?? message.media?.mimetype ?? 'application/octet-stream',
          fileName: message.media?.fileName,
        };
      },
    };
  },
};
