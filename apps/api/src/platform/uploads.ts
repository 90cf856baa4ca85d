import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { MB } from '@atendi/shared';
import type { Db } from '../db/client';
import { cleanFileName, stripNul } from './nul';
import { parseByteRange, type ByteRange } from './byte-range';
import { AppError } from './errors';
import { StorageUnavailable, type FileStore } from './file-store';
import { consume, type Limiter } from './rate-limit';
import { createStorage } from './storage';

export type UploadRule = {
  // Lower-case extensions with the dot, e.g. '.png'.
  extensions: readonly string[];
  maxBytes: number;
};

export const imageRule: UploadRule = {
  extensions: ['.png', '.jpg', '.jpeg'],
  maxBytes: 5 * 1024 * 1024,
};

export type StoredFile = { storedName: string; originalName: string; size: number };
// Whom a request's files count against: the company whose storage they fill, and the rate limit of
// who sends them (a user, or a connection's API token).
export type Uploader = { companyId: number; rateKey: string };
export const uploaderOf = (request: FastifyRequest, companyId: number): Uploader => ({
  companyId,
  rateKey: `user:${request.auth.userId}`,
});
// Room for a form's text fields and part headers beside its files, when judging Content-Length.
const FORM_OVERHEAD_BYTES = 512 * 1024;
// receiveMany: each file with the type it was sent as, and the form's text fields by name.
export type ReceivedFile = StoredFile & { mimetype: string };
export type ReceivedForm = { files: ReceivedFile[]; fields: Record<string, string[]> };

const contentTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.webm': 'video/webm',
  '.3gp': 'video/3gpp',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.amr': 'audio/amr',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.zip': 'application/zip',
  '.vcf': 'text/vcard',
};

// The extension to store a received file under: its own when it is a plain one, else one from its type.
const extensionFor = (fileName: string | undefined, mimetype: string) => {
  const own = path.extname(fileName ?? '').toLowerCase();
  if (/^\.[a-z0-9]{1,8}$/.test(own)) return own;
  const base = mimetype.split(';')[0].trim().toLowerCase();
  const known = Object.entries(contentTypes).find(([, type]) => type.split(';')[0] === base);
  if (known) return known[0];
  const sub = base
    .split('/')[1]
    ?.replace(/[^a-z0-9]/g, '')
    .slice(0, 8);
  return sub ? `.${sub}` : '.bin';
};

// The name a file keeps for whoever downloads it.
const originalNameOf = (fileName: string | undefined, extension: string) =>
  path.basename(cleanFileName(fileName ?? '') || `file${extension}`).slice(0, 200);

// The type a file was sent as, or the one its extension says when the browser did not know.
const mimetypeOf = (declared: string | undefined, storedName: string) => {
  const base = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (/^[a-z]+\/[a-z0-9.+-]+$/.test(base) && base !== 'application/octet-stream') return base;
  return contentTypes[path.extname(storedName)]?.split(';')[0] ?? 'application/octet-stream';
};

const tooLarge = (rule: UploadRule) =>
  new AppError(
    'ERR_UPLOAD_TOO_LARGE',
    `The file is larger than ${Math.round(rule.maxBytes / 1024 / 1024)} MB`,
  );

// A form that breaks busboy's limits, or arrives cut or malformed, is the client's error.
const formReadError = (error: unknown, rule: UploadRule & { maxFiles: number }) => {
  // The store's failure is not the client's: it stays a 503.
  if (error instanceof AppError || error instanceof StorageUnavailable) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(rule);
  const message =
    code === 'FST_FILES_LIMIT'
      ? `Send at most ${rule.maxFiles} files at once`
      : `The form could not be read: ${error instanceof Error ? error.message : String(error)}`;
  return new AppError('ERR_VALIDATION', message, { fields: { files: [message] } });
};

// Stored names are ours alone: 32 hex characters and the checked extension. Nothing a client sends
// becomes part of a path.
const STORED_NAME = /^[a-f0-9]{32}\.[a-z0-9]{1,8}$/;
// Signed links live about a day, rounded to the hour so a page's images stay cacheable meanwhile.
const LINK_TTL_SECONDS = 24 * 3600;

export type Uploads = ReturnType<typeof createUploads>;

// A stored file on its way to a browser: all of it (range undefined) or the asked-for bytes.
type Download = {
  body: Readable;
  size: number;
  range?: ByteRange;
  contentType: string;
};

export const createUploads = (options: {
  // Where the files are (platform/file-store.ts); each company's under `{companyId}/`.
  files: FileStore;
  publicApiUrl: string;
  secret: string;
  db: Db;
  // KiB per uploader per minute (rate-limit.ts); one request's files together at most requestMaxBytes.
  rateLimit: Limiter;
  requestMaxBytes: number;
}) => {
  const { files } = options;
  // The one place a key is made: the company's folder and a name this module made itself.
  const keyOf = (companyId: number, storedName: string) => {
    if (!Number.isInteger(companyId) || companyId <= 0 || !STORED_NAME.test(storedName))
      return undefined;
    return `${companyId}/${storedName}`;
  };
  const storage = createStorage({ db: options.db, files });
  const requestMaxMb = Math.floor(options.requestMaxBytes / MB);
  const requestTooLarge = () =>
    new AppError(
      'ERR_UPLOAD_REQUEST_TOO_LARGE',
      `The files of one request may add up to at most ${requestMaxMb} MB; send them in several`,
      { details: { maxMb: requestMaxMb } },
    );
  // A request that says it is larger than any acceptable form is refused before a byte is read.
  const assertDeclaredSize = (request: FastifyRequest) => {
    const declared = Number(request.headers['content-length']);
    if (declared > options.requestMaxBytes + FORM_OVERHEAD_BYTES) throw requestTooLarge();
  };
  const remove = async (companyId: number, storedName: string | null | undefined) => {
    const key = storedName ? keyOf(companyId, storedName) : undefined;
    if (!key || !storedName) return;
    await files.delete(key);
    await storage.release(companyId, storedName);
  };
  // One request's files: each is checked against the request's total, the uploader's rate and the
  // company's storage as it comes; discard() removes (and uncounts) every file kept so far.
  const openIntake = (uploader: Uploader) => {
    const kept: string[] = [];
    let total = 0;
    return {
      // Counts one file: before it is written, or right after for a streamed one.
      async admit(storedName: string, bytes: number) {
        total += bytes;
        if (total > options.requestMaxBytes) throw requestTooLarge();
        await consume(
          options.rateLimit,
          uploader.rateKey,
          'Too many files uploaded in a short time; wait a moment',
          { points: Math.max(1, Math.ceil(bytes / 1024)) },
        );
        await storage.charge(uploader.companyId, storedName, bytes);
        kept.push(storedName);
      },
      async discard(written: readonly string[] = []) {
        for (const name of new Set([...kept, ...written]))
          await remove(uploader.companyId, name).catch(() => undefined);
      },
    };
  };
  const newName = (extension: string) => `${randomBytes(16).toString('hex')}${extension}`;
  const writeNew = async (companyId: number, storedName: string, data: Buffer) => {
    const key = keyOf(companyId, storedName);
    if (!key) throw new Error(`Invalid company id ${companyId}`);
    await files.put(key, data);
  };
  // One multipart file into the company's folder under a new name, or refused whole.
  const storePart = async (
    part: MultipartFile,
    companyId: number,
    rule: UploadRule,
  ): Promise<StoredFile> => {
    const originalName = path.basename(cleanFileName(part.filename) || 'file').slice(0, 200);
    const extension = path.extname(originalName).toLowerCase();
    if (!rule.extensions.includes(extension)) {
      part.file.resume();
      throw new AppError('ERR_UPLOAD_TYPE_NOT_ALLOWED', `Allowed: ${rule.extensions.join(', ')}`);
    }
    const storedName = newName(extension);
    const key = keyOf(companyId, storedName);
    if (!key) throw new Error(`Invalid company id ${companyId}`);
    let size: number;
    try {
      size = await files.put(key, part.file);
    } catch (error) {
      await files.delete(key).catch(() => undefined);
      throw error;
    }
    if (part.file.truncated) {
      await files.delete(key);
      throw tooLarge(rule);
    }
    return { storedName, originalName, size };
  };
  const sign = (companyId: number, storedName: string, expires: number) =>
    createHmac('sha256', options.secret)
      .update(`${companyId}/${storedName}/${expires}`)
      .digest('base64url');

  return {
    // Reads the request's one multipart file into the company's folder, or refuses it whole.
    async receive(
      request: FastifyRequest,
      uploader: Uploader,
      rule: UploadRule,
    ): Promise<StoredFile> {
      if (!request.isMultipart())
        throw new AppError('ERR_UPLOAD_MISSING_FILE', 'Send the file as multipart/form-data');
      assertDeclaredSize(request);
      const part = await request.file({ limits: { fileSize: rule.maxBytes, files: 1 } });
      if (!part) throw new AppError('ERR_UPLOAD_MISSING_FILE', 'No file in the request');
      const stored = await storePart(part, uploader.companyId, rule);
      const intake = openIntake(uploader);
      try {
        await intake.admit(stored.storedName, stored.size);
      } catch (error) {
        await intake.discard([stored.storedName]);
        throw error;
      }
      return stored;
    },

    // Reads a multipart form of up to rule.maxFiles files and its text fields. Every file is
    // checked and stored as it arrives; a refused form keeps none of them.
    async receiveMany(
      request: FastifyRequest,
      uploader: Uploader,
      rule: UploadRule & { maxFiles: number },
    ): Promise<ReceivedForm> {
      if (!request.isMultipart())
        throw new AppError('ERR_UPLOAD_MISSING_FILE', 'Send the files as multipart/form-data');
      assertDeclaredSize(request);
      const form: ReceivedForm = { files: [], fields: {} };
      const intake = openIntake(uploader);
      const written: string[] = [];
      try {
        const parts = request.parts({
          // app.ts allows one file per request; this form takes several, each with a few fields.
          limits: {
            files: rule.maxFiles,
            fileSize: rule.maxBytes,
            fields: rule.maxFiles * 6 + 10,
            fieldSize: 4096,
          },
        });
        for await (const part of parts) {
          if (part.type === 'field') {
            if (typeof part.value === 'string' && !part.valueTruncated)
              (form.fields[part.fieldname] ??= []).push(stripNul(part.value));
            continue;
          }
          const stored = await storePart(part, uploader.companyId, rule);
          written.push(stored.storedName);
          await intake.admit(stored.storedName, stored.size);
          form.files.push({ ...stored, mimetype: mimetypeOf(part.mimetype, stored.storedName) });
        }
        if (!form.files.length)
          throw new AppError('ERR_UPLOAD_MISSING_FILE', 'No file in the request');
        return form;
      } catch (error) {
        await intake.discard(written);
        throw formReadError(error, rule);
      }
    },

    // A request's files read by the caller (the message forms): keep() checks each against the
    // request's total, the uploader's rate and the company's storage before writing it; discard()
    // removes every file kept so far.
    intake(request: FastifyRequest, uploader: Uploader) {
      assertDeclaredSize(request);
      const intake = openIntake(uploader);
      return {
        async keep(
          data: Buffer,
          file: { fileName?: string; mimetype: string },
        ): Promise<StoredFile> {
          const extension = extensionFor(file.fileName, file.mimetype);
          const storedName = newName(extension);
          await intake.admit(storedName, data.length);
          await writeNew(uploader.companyId, storedName, data);
          return {
            storedName,
            originalName: originalNameOf(file.fileName, extension),
            size: data.length,
          };
        },
        discard: () => intake.discard(),
      };
    },

    // Keeps a file that arrived some other way (a WhatsApp media download, a copy) in the company's
    // folder; counted against its storage (in `within`, a transaction the caller holds, if given).
    async store(
      companyId: number,
      data: Buffer,
      file: { fileName?: string; mimetype: string },
      within?: Db,
    ): Promise<StoredFile> {
      const extension = extensionFor(file.fileName, file.mimetype);
      const storedName = newName(extension);
      if (!keyOf(companyId, storedName)) throw new Error(`Invalid company id ${companyId}`);
      await storage.charge(companyId, storedName, data.length, within);
      try {
        await writeNew(companyId, storedName, data);
      } catch (error) {
        await remove(companyId, storedName);
        throw error;
      }
      return {
        storedName,
        originalName: originalNameOf(file.fileName, extension),
        size: data.length,
      };
    },

    // Removes a file and uncounts it.
    remove,

    // Every file of a company that is being deleted (its counts go with its row).
    async removeCompany(companyId: number) {
      if (Number.isInteger(companyId) && companyId > 0) await files.deletePrefix(`${companyId}/`);
    },

    // Counts what the counts missed (files older than the counting, a crash between two steps).
    reconcile: (now: Date) => storage.reconcile(now),

    // A stored file's bytes (to send it on, copy it, transcribe it), or undefined when it is gone.
    async read(companyId: number, storedName: string | null | undefined) {
      const key = storedName ? keyOf(companyId, storedName) : undefined;
      return key ? files.read(key) : undefined;
    },

    // Whether the file is still stored (before a send that needs it).
    async exists(companyId: number, storedName: string) {
      const key = keyOf(companyId, storedName);
      return Boolean(key && (await files.stat(key)));
    },

    // A stored file's size in bytes, or undefined when it is gone: a file too large for what it is
    // wanted for (a voice note for the AI provider) is passed over without reading it.
    async sizeOf(companyId: number, storedName: string) {
      const key = keyOf(companyId, storedName);
      return key ? (await files.stat(key))?.bytes : undefined;
    },

    // The URL handed to whoever may see the record that owns the file.
    urlFor(companyId: number, storedName: string | null | undefined, now = Date.now()) {
      if (!storedName || !keyOf(companyId, storedName)) return null;
      const expires = Math.ceil((now / 1000 + LINK_TTL_SECONDS) / 3600) * 3600;
      const sig = sign(companyId, storedName, expires);
      return `${options.publicApiUrl}/uploads/${companyId}/${storedName}?expires=${expires}&sig=${sig}`;
    },

    // Opens the file a signed link names, all of it or the one byte range asked for (`Range`);
    // undefined for anything unsigned, expired, forged or missing. A range past the end is
    // ERR_RANGE_NOT_SATISFIABLE, carrying the Content-Range a 416 answers with.
    async download(
      link: { companyId: number; storedName: string; expires: number; sig: string },
      rangeHeader: string | undefined,
      now = Date.now(),
    ): Promise<Download | undefined> {
      const { companyId, storedName, expires, sig } = link;
      const key = keyOf(companyId, storedName);
      if (!key || !Number.isFinite(expires) || expires * 1000 < now) return undefined;
      const expected = Buffer.from(sign(companyId, storedName, expires));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
      const info = await files.stat(key);
      if (!info) return undefined;
      const range = parseByteRange(rangeHeader, info.bytes);
      if (range === 'unsatisfiable')
        throw new AppError(
          'ERR_RANGE_NOT_SATISFIABLE',
          `The file has ${info.bytes} bytes; the range asked for starts past its end`,
          { headers: { 'content-range': `bytes */${info.bytes}` } },
        );
      const body = await files.open(key, range);
      // Deleted between the two looks.
      if (!body) return undefined;
      return {
        body,
        size: info.bytes,
        range,
        contentType: contentTypes[path.extname(storedName)] ?? 'application/octet-stream',
      };
    },
  };
};
