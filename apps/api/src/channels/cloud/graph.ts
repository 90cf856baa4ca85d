import { graphTemplateSchema, type GraphTemplate } from '@atendi/shared';
import { refusalIn } from '../../platform/outbound';
import { ChannelError } from '../driver';

// A small client for the parts of Meta's Graph API the Cloud API driver uses. The access token only
// travels in the Authorization header: it is never put in a URL, an error message or a log line.

const DEFAULT_GRAPH_URL = 'https://graph.facebook.com';
const GRAPH_VERSION = 'v21.0';
const TIMEOUT_MS = 15_000;
// WhatsApp's own ceiling for a file (documents, 100 MB).
const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

type ErrorCode = ChannelError['code'];
// Meta's "Re-engagement message" error: more than 24 hours since the contact last wrote.
const REENGAGEMENT_CODE = 131047;
// Templates per page of the listing (Meta allows up to 100 here; the default is 25).
const TEMPLATES_PAGE = 100;
// A business account holds at most a few thousand templates: stop following pages past this.
const TEMPLATES_MAX_PAGES = 100;

type GraphOptions = {
  accessToken: string;
  phoneNumberId: string;
  baseUrl?: string | null;
  timeoutMs?: number;
  // The company may name another base URL: its calls go through the outbound guard.
  fetch?: typeof fetch;
};

type GraphMessageResult = {
  messaging_product?: string;
  contacts?: { input?: string; wa_id?: string }[];
  messages?: { id: string }[];
};

type GraphErrorBody = { error?: { message?: string; code?: number; type?: string } };

// The Graph API says why in { error: { message, code } }; 401 and code 190 mean the token is bad.
// Meta's own words are passed on; another server's (a base URL the company typed) are not.
const graphFailure = async (response: Response, code: ErrorCode, what: string, isMeta: boolean) => {
  const body = (await response.json().catch(() => ({}))) as GraphErrorBody;
  const detail = (isMeta && body.error?.message) || 'the Graph API refused the request';
  const authFailed = response.status === 401 || body.error?.code === 190;
  return new ChannelError(
    authFailed
      ? 'ERR_WAPP_NOT_INITIALIZED'
      : body.error?.code === REENGAGEMENT_CODE
        ? 'ERR_WAPP_WINDOW_CLOSED'
        : code,
    `${what}: ${detail}${body.error?.code !== undefined ? ` (code ${body.error.code})` : ''} [HTTP ${response.status}]`,
  );
};

const networkFailure = (error: unknown, code: ErrorCode, what: string, timeoutMs: number) => {
  if (error instanceof ChannelError) return error;
  const refusal = refusalIn(error);
  if (refusal) return new ChannelError(code, `${what}: ${refusal.message}`, refusal);
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new ChannelError(
      code,
      `${what}: the Graph API did not answer within ${timeoutMs / 1000} s`,
    );
  const reason =
    (error as { cause?: { code?: string } } | undefined)?.cause?.code ?? 'network error';
  return new ChannelError(code, `${what}: the Graph API is unreachable (${reason})`);
};

// The client of a Cloud API connection, or ERR_WAPP_NOT_INITIALIZED when its credentials are missing.
export const NOT_CONFIGURED =
  'The Cloud API connection needs a phone number id and an access token';
export const graphClientFor = (
  connection: {
    cloudPhoneNumberId: string | null;
    cloudAccessToken: string | null;
    cloudApiBaseUrl: string | null;
  },
  fetcher?: typeof fetch,
) => {
  const { cloudPhoneNumberId: phoneNumberId, cloudAccessToken: accessToken } = connection;
  if (!phoneNumberId || !accessToken)
    throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', NOT_CONFIGURED);
  return createGraphClient({
    phoneNumberId,
    accessToken,
    baseUrl: connection.cloudApiBaseUrl,
    fetch: fetcher,
  });
};

export const createGraphClient = (options: GraphOptions) => {
  const host = (options.baseUrl || DEFAULT_GRAPH_URL).replace(/\/+$/, '');
  const base = `${host}/${GRAPH_VERSION}`;
  const isMeta = host === DEFAULT_GRAPH_URL;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const phoneId = encodeURIComponent(options.phoneNumberId);
  const authorization = `Bearer ${options.accessToken}`;

  const call = async (
    url: string,
    init: { method?: string; json?: unknown; form?: FormData },
    code: ErrorCode,
    what: string,
  ): Promise<Response> => {
    // Meta's media host answers an error page to requests without a user agent.
    const headers: Record<string, string> = { authorization, 'user-agent': 'Atendi' };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, {
        method: init.method ?? 'GET',
        headers,
        body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw networkFailure(error, code, what, timeoutMs);
    }
    if (!response.ok) throw await graphFailure(response, code, what, isMeta);
    return response;
  };

  const json = async <T>(
    path: string,
    init: { method?: string; json?: unknown; form?: FormData },
    code: ErrorCode,
    what: string,
  ): Promise<T> => {
    const response = await call(`${base}/${path}`, init, code, what);
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw networkFailure(error, code, what, timeoutMs);
    }
  };

  return {
    getPhoneNumber: () =>
      json<{
        id?: string;
        display_phone_number?: string;
        verified_name?: string;
        quality_rating?: string;
        messaging_limit_tier?: string;
      }>(
        `${phoneId}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`,
        {},
        'ERR_WAPP_NOT_INITIALIZED',
        'Checking the phone number failed',
      ),

    sendMessage: (body: Record<string, unknown>) =>
      json<GraphMessageResult>(
        `${phoneId}/messages`,
        { method: 'POST', json: { messaging_product: 'whatsapp', ...body } },
        'ERR_SENDING_WAPP_MSG',
        'Sending the message failed',
      ),

    async uploadMedia(file: { data: Buffer; fileName: string; mimetype: string }) {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', file.mimetype);
      form.append('file', new Blob([file.data], { type: file.mimetype }), file.fileName);
      const result = await json<{ id?: string }>(
        `${phoneId}/media`,
        { method: 'POST', form },
        'ERR_SENDING_WAPP_MSG',
        'Uploading the file failed',
      );
      if (!result.id)
        throw new ChannelError('ERR_SENDING_WAPP_MSG', 'Uploading the file failed: no media id');
      return { id: result.id };
    },

    async getMediaUrl(mediaId: string) {
      const result = await json<{ url?: string; mime_type?: string }>(
        encodeURIComponent(mediaId),
        {},
        'ERR_WAPP_DOWNLOAD_MEDIA',
        'Looking up the file failed',
      );
      if (!result.url)
        throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'Looking up the file failed: no URL');
      return { url: result.url, mime_type: result.mime_type };
    },

    // Media URLs need the same bearer token, and live about five minutes: fetch right after lookup.
    async download(url: string): Promise<Buffer> {
      const what = 'Downloading the file failed';
      const response = await call(url, {}, 'ERR_WAPP_DOWNLOAD_MEDIA', what);
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_DOWNLOAD_BYTES) {
        await response.body?.cancel();
        throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', `${what}: the file is too large`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body ?? []) {
          size += chunk.length;
          if (size > MAX_DOWNLOAD_BYTES)
            throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', `${what}: the file is too large`);
          chunks.push(Buffer.from(chunk));
        }
      } catch (error) {
        throw networkFailure(error, 'ERR_WAPP_DOWNLOAD_MEDIA', what, timeoutMs);
      }
      return Buffer.concat(chunks);
    },

    // Every template of the WhatsApp Business Account, following the listing's cursors. Entries that
    // do not look like a template are skipped (and counted), never trusted.
    async listTemplates(businessAccountId: string) {
      const templates: GraphTemplate[] = [];
      let skipped = 0;
      let after: string | undefined;
      for (let page = 0; page < TEMPLATES_MAX_PAGES; page += 1) {
        const query = new URLSearchParams({
          fields: 'id,name,language,status,category,parameter_format,components',
          limit: String(TEMPLATES_PAGE),
          ...(after ? { after } : {}),
        });
        const result = await json<{
          data?: unknown[];
          paging?: { cursors?: { after?: string }; next?: string };
        }>(
          `${encodeURIComponent(businessAccountId)}/message_templates?${query}`,
          {},
          'ERR_FETCH_WAPP_MSG',
          'Listing the message templates failed',
        );
        for (const entry of Array.isArray(result.data) ? result.data : []) {
          const parsed = graphTemplateSchema.safeParse(entry);
          if (parsed.success) templates.push(parsed.data);
          else skipped += 1;
        }
        after = result.paging?.cursors?.after;
        if (!result.paging?.next || !after) break;
      }
      return { templates, skipped };
    },

    markRead: (messageId: string) =>
      json<{ success?: boolean }>(
        `${phoneId}/messages`,
        {
          method: 'POST',
          json: { messaging_product: 'whatsapp', status: 'read', message_id: messageId },
        },
        'ERR_SENDING_WAPP_MSG',
        'Marking the message as read failed',
      ),
  };
};
