import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import {
  MESSAGE_BODY_MAX,
  MESSAGE_MEDIA_MAX_BYTES,
  MESSAGE_MEDIA_MAX_FILES,
  messageMediaExtensions,
  quotedMsgField,
  type MediaType,
} from '@atendi/shared';
import { AppError } from '../../platform/errors';
import type { Uploader, Uploads } from '../../platform/uploads';

// Reads the multipart form of a send (SPEC §7: medias, body, quotedMsg): every file is stored as it
// arrives, one in memory at a time, counted against the request's total, the sender's rate and the
// company's storage (platform/uploads.ts), and a refused form leaves no file behind.

export type OutgoingMedia = {
  storedName: string;
  fileName: string;
  mimetype: string;
  mediaType: MediaType;
};

export type MessageForm = {
  body: string;
  quotedMsgId: number | null;
  // Every file the send stored (a refused send removes them).
  medias: OutgoingMedia[];
  // Forwarded messages, each as it was (text, or a file with its caption), sent marked forwarded
  // instead of the body and medias above.
  forwards?: { body: string; media: OutgoingMedia | null }[];
};

// What to tell WhatsApp when the browser only says application/octet-stream.
const typeByExtension: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg; codecs=opus',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.amr': 'audio/amr',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.3gp': 'video/3gpp',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.vcf': 'text/vcard',
  '.zip': 'application/zip',
};

export const mimetypeOf = (declared: string | undefined, extension: string) => {
  const base = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (/^[a-z]+\/[a-z0-9.+-]+$/.test(base) && base !== 'application/octet-stream') return base;
  return typeByExtension[extension] ?? 'application/octet-stream';
};

export const mediaTypeOf = (mimetype: string): MediaType => {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('video/')) return 'video';
  return 'application';
};

const invalid = (field: string, message: string) =>
  new AppError('ERR_VALIDATION', message, { fields: { [field]: [message] } });

// A form field's quotedMsg is the id, or the quoted message as JSON text (what SPEC's client sends).
const parseQuoted = (text: string) => {
  let value: unknown = text.trim();
  if (typeof value === 'string' && value.startsWith('{')) {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalid('quotedMsg', 'quotedMsg must be a message id');
    }
  }
  const parsed = quotedMsgField.safeParse(value);
  if (!parsed.success) throw invalid('quotedMsg', 'quotedMsg must be a message id');
  return parsed.data;
};

// A failure reading the form is the client's: busboy's limits by their codes, anything else a cut
// or malformed body.
const formError = (error: unknown) => {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT')
    return invalid('medias', `Send at most ${MESSAGE_MEDIA_MAX_FILES} files at once`);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError(
      'ERR_UPLOAD_TOO_LARGE',
      `Each file may have at most ${MESSAGE_MEDIA_MAX_BYTES / 1024 / 1024} MB`,
    );
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return invalid('_', 'The form has too many fields');
  const reason = error instanceof Error ? error.message : String(error);
  return invalid('_', `The form could not be read: ${reason}`);
};

// Reads from the request body: a failure there is bad input, not a server error.
const fromClient = async <T>(read: () => Promise<T>): Promise<T> => {
  try {
    return await read();
  } catch (error) {
    throw formError(error);
  }
};

// `fields` names further text fields the caller reads (the external API's number); they come back in
// `fields`, the last value of each.
export const readMessageForm = async (
  request: FastifyRequest,
  uploads: Uploads,
  uploader: Uploader,
  options: { fields?: readonly string[] } = {},
): Promise<MessageForm & { fields: Record<string, string> }> => {
  const intake = uploads.intake(request, uploader);
  const medias: OutgoingMedia[] = [];
  const fields: Record<string, string> = {};
  let body = '';
  let quotedMsgId: number | null = null;
  try {
    const parts = await fromClient(async () =>
      request.parts({
        // app.ts allows one file per request; a send takes up to MESSAGE_MEDIA_MAX_FILES.
        limits: {
          files: MESSAGE_MEDIA_MAX_FILES,
          fileSize: MESSAGE_MEDIA_MAX_BYTES,
          fields: 20,
          fieldSize: MESSAGE_BODY_MAX * 4 + 1,
        },
      }),
    );
    for (;;) {
      const next = await fromClient(() => parts.next());
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname === 'body' && part.valueTruncated)
          throw invalid('body', `The message may have at most ${MESSAGE_BODY_MAX} characters`);
        if (typeof part.value !== 'string' || part.valueTruncated)
          throw invalid(part.fieldname, `${part.fieldname} is not valid text`);
        if (part.fieldname === 'body') body = part.value;
        else if (part.fieldname === 'quotedMsg') quotedMsgId = parseQuoted(part.value);
        else if (options.fields?.includes(part.fieldname)) fields[part.fieldname] = part.value;
        // read, fromMe and mediaUrl are SPEC fields with nothing to choose: a send is always fromMe.
        continue;
      }
      if (part.fieldname !== 'medias') {
        part.file.resume();
        throw invalid(part.fieldname, 'Send files in the medias field');
      }
      const fileName = path.basename(part.filename || 'file').slice(0, 200);
      const extension = path.extname(fileName).toLowerCase();
      if (!(messageMediaExtensions as readonly string[]).includes(extension)) {
        part.file.resume();
        throw new AppError(
          'ERR_UPLOAD_TYPE_NOT_ALLOWED',
          `${fileName}: WhatsApp does not take ${extension || 'files without an extension'}`,
        );
      }
      const data = await fromClient(() => part.toBuffer());
      if (!data.length) throw invalid('medias', `${fileName} is empty`);
      const mimetype = mimetypeOf(part.mimetype, extension);
      const stored = await intake.keep(data, { fileName, mimetype });
      medias.push({
        storedName: stored.storedName,
        fileName: stored.originalName,
        mimetype,
        mediaType: mediaTypeOf(mimetype),
      });
    }
    if (body.length > MESSAGE_BODY_MAX)
      throw invalid('body', `The message may have at most ${MESSAGE_BODY_MAX} characters`);
    if (!medias.length && !body.trim()) throw invalid('body', 'Write a message or attach a file');
    return { body, quotedMsgId, medias, fields };
  } catch (error) {
    await intake.discard();
    throw error;
  }
};

export const discardMedia = async (
  uploads: Uploads,
  companyId: number,
  medias: OutgoingMedia[],
) => {
  for (const media of medias) await uploads.remove(companyId, media.storedName).catch(() => {});
};
