import {
  ChannelError,
  type ChannelDriver,
  type ChannelSession,
  type OutgoingMedia,
  type SendRequest,
  type SessionContext,
  type TemplateSend,
} from '../driver';
import { normalizeNumber } from '../numbers';
import { graphClientFor, NOT_CONFIGURED } from './graph';
import { healthValue, mediaIdOf } from './payloads';

// The official WhatsApp Business Cloud API (provider 'cloud'). There is no socket to keep open:
// inbound messages and acks arrive by webhook (webhook.routes.ts → inbox.ts → manager.deliver), and a
// session only checks the credentials, sends through the Graph API and fetches media.

const HEADER_UPLOAD_TTL_MS = 24 * 3600_000;
const HEADER_UPLOADS_KEPT = 50;

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
    const graph = () => graphClientFor(connection, ctx.fetch);

    const mediaPayload = async (media: OutgoingMedia, caption: string) => {
      const type = sendTypeOf(media);
      const data = await ctx.readMedia(media.storedName);
      if (!data)
        throw new ChannelError('ERR_SENDING_WAPP_MSG', `The file ${media.fileName} is missing`);
      // The Graph API wants the bare MIME type ('audio/ogg', not 'audio/ogg; codecs=opus').
      const mimetype = media.mimetype.split(';')[0].trim() || 'application/octet-stream';
      const { id } = await graph().uploadMedia({ data, fileName: media.fileName, mimetype });
      const file: Record<string, string> = { id };
      // Audio carries no caption on WhatsApp; the other kinds show it under the file.
      if (caption && type !== 'audio') file.caption = caption;
      if (type === 'document') file.filename = media.fileName;
      return { type, [type]: file };
    };

    // A campaign sends one header file to every recipient: it is uploaded once and its media id
    // reused (Meta keeps uploads for 30 days; a day here).
    const headerUploads = new Map<
      string,
      { media: Awaited<ReturnType<typeof mediaPayload>>; at: number }
    >();
    const headerPayload = async (media: OutgoingMedia) => {
      const cached = headerUploads.get(media.storedName);
      if (cached && Date.now() - cached.at < HEADER_UPLOAD_TTL_MS) return cached.media;
      const uploaded = await mediaPayload(media, '');
      if (headerUploads.size >= HEADER_UPLOADS_KEPT)
        headerUploads.delete(headerUploads.keys().next().value!);
      headerUploads.set(media.storedName, { media: uploaded, at: Date.now() });
      return uploaded;
    };

    // A template message: its header file first, then the values of its parameters.
    const templatePayload = async (template: TemplateSend) => {
      const parameters = (values: TemplateSend['body']) =>
        values.map(({ name, value }) => ({
          type: 'text',
          text: value,
          // Named parameters say which one they fill; positional ones go in order.
          ...(/^\d+$/.test(name) ? {} : { parameter_name: name }),
        }));
      const components: Record<string, unknown>[] = [];
      if (template.headerMedia) {
        const { type, ...file } = await headerPayload(template.headerMedia);
        components.push({ type: 'header', parameters: [{ type, ...file }] });
      } else if (template.header.length)
        components.push({ type: 'header', parameters: parameters(template.header) });
      if (template.body.length)
        components.push({ type: 'body', parameters: parameters(template.body) });
      return {
        type: 'template',
        template: {
          name: template.name,
          language: { code: template.language },
          ...(components.length ? { components } : {}),
        },
      };
    };

    return {
      async start() {
        if (!connection.cloudPhoneNumberId || !connection.cloudAccessToken) {
          await ctx.emit({
            type: 'status',
            status: 'DISCONNECTED',
            reason: NOT_CONFIGURED,
            cause: 'not_configured',
          });
          return;
        }
        try {
          const phone = await graph().getPhoneNumber();
          await ctx.emit({
            type: 'status',
            status: 'CONNECTED',
            number: normalizeNumber(phone.display_phone_number ?? ''),
          });
          const quality = healthValue(phone.quality_rating);
          const messagingLimit = healthValue(phone.messaging_limit_tier);
          if (quality || messagingLimit)
            await ctx.emit({ type: 'health', quality, messagingLimit });
        } catch (error) {
          // Bad credentials or an unreachable Graph API are a state to show, not a crash.
          if (!(error instanceof ChannelError)) throw error;
          log.warn(
            { code: error.code, reason: error.message },
            'cloud api credentials check failed',
          );
          await ctx.emit({
            type: 'status',
            status: 'DISCONNECTED',
            reason: error.message,
            // Meta refused the token (401, 403 or its code 190), or the request (another 4xx: an
            // unknown phone number id); else it could not be asked.
            cause: /\[HTTP 40[13]\]|\(code 190\)/.test(error.message)
              ? 'unauthorized'
              : /\[HTTP 4\d\d\]/.test(error.message)
                ? 'not_configured'
                : 'network',
          });
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
        const content = request.template
          ? await templatePayload(request.template)
          : request.media
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

      // An empty emoji takes the reaction back (Meta's documented way).
      async react(request) {
        await graph().sendMessage({
          recipient_type: 'individual',
          to: request.to,
          type: 'reaction',
          reaction: { message_id: request.providerId, emoji: request.emoji },
        });
      },

      // Meta's typing indicator: shown up to 25 seconds or until the reply, on the contact's last
      // message (which it marks read). There is no "stopped": the reply or the time ends it.
      async sendPresence(request) {
        if (!request.typing || !request.lastInboundId) return;
        await graph().sendMessage({
          status: 'read',
          message_id: request.lastInboundId,
          typing_indicator: { type: 'text' },
        });
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
