import {
  externalApiContract,
  IDEMPOTENCY_KEY_HEADER,
  type ExternalSendInput,
} from '@atendi/shared';
import { ApiError, NETWORK_ERROR } from '../../api/http-client';
import { getApiUrl } from '../../api/runtime-config';

// The address customers' systems call, on the API host this app talks to at run time.
export const externalApiUrl = () => `${getApiUrl()}${externalApiContract.sendExternalMessage.path}`;

// 'idempotency-key' as the docs write it: 'Idempotency-Key'.
export const idempotencyHeaderName = IDEMPOTENCY_KEY_HEADER.replace(/(^|-)[a-z]/g, (start) =>
  start.toUpperCase(),
);

// crypto.randomUUID exists only on secure pages (https, localhost); getRandomValues everywhere.
export const newIdempotencyKey = () => {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

// What the endpoint answered, whole, as the customer's system would see it.
export type ExternalSendAnswer = { status: number; body: unknown; retryAfter?: number };

const readBody = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

// Seconds, from a number or an HTTP date.
const parseRetryAfter = (header: string | null) => {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
};

// Plain fetch with the typed connection token: the app's http-client would send the signed-in
// user's token instead and sign the user out on this endpoint's 401.
export const sendExternalMessage = async ({
  token,
  payload,
  idempotencyKey,
}: {
  token: string;
  payload: ExternalSendInput | FormData;
  idempotencyKey: string;
}): Promise<ExternalSendAnswer> => {
  const isMultipart = payload instanceof FormData;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Authorization: `Bearer ${token}`,
    [idempotencyHeaderName]: idempotencyKey,
    // The browser writes the multipart boundary itself.
    ...(isMultipart ? {} : { 'Content-Type': 'application/json' }),
  };
  let response: Response;
  try {
    response = await fetch(externalApiUrl(), {
      method: 'POST',
      headers,
      body: isMultipart ? payload : JSON.stringify(payload),
      credentials: 'omit',
    });
  } catch {
    throw new ApiError({ status: 0, code: NETWORK_ERROR, message: 'Network error' });
  }
  return {
    status: response.status,
    body: await readBody(response),
    retryAfter: parseRetryAfter(response.headers.get('Retry-After')),
  };
};

export const isSuccess = (answer: ExternalSendAnswer) =>
  answer.status >= 200 && answer.status < 300;

// A refusal as the app's toasts understand it: { error, message, fields? } plus Retry-After.
export const answerError = (answer: ExternalSendAnswer) => {
  const data = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as {
    error?: unknown;
    message?: unknown;
    fields?: Record<string, string[]>;
  };
  return new ApiError({
    status: answer.status,
    code: typeof data.error === 'string' ? data.error : undefined,
    message:
      (typeof data.message === 'string' && data.message) ||
      (typeof answer.body === 'string' && answer.body) ||
      `HTTP ${answer.status}`,
    fields: data.fields,
    retryAfter: answer.retryAfter,
  });
};
