import { contactListsContract, routePath, type ContactListUploadResult } from '@atendi/shared';
import { ApiError, NETWORK_ERROR, call, refreshSession } from '../../api/http-client';
import { getApiUrl } from '../../api/runtime-config';
import { getToken } from '../../api/session';
import { isCsvFile } from '../../lib/contact-sheet';

// POST /contact-lists/{id}/upload: an .xlsx or a CSV. fetch cannot tell how much of a request body
// has gone out, so the file goes by XMLHttpRequest, whose upload events drive the progress bar. It
// carries what the HTTP client sends (the session's bearer token, the cookies, Accept: JSON). An
// answer about the session itself (an expired token, an ended session, an inactive company) is
// handed to the HTTP client, which sends the file again under its own rules: refresh once and
// retry, sign out, the company gate. An expired token is refreshed first (the client's one shared
// refresh), so the file is not sent a second time with the token just refused.

type Answer = { status: number; body: unknown; token: string | null };

// The server tells a CSV by its name: one the browser knew by its type only is named so.
const nameOf = (file: File) =>
  isCsvFile(file) && !/\.csv$/i.test(file.name) ? `${file.name}.csv` : file.name;

const formOf = (file: File) => {
  const form = new FormData();
  form.append('file', file, nameOf(file));
  return form;
};

const parseBody = (text: string): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const codeOf = (body: unknown) =>
  body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
    ? (body as { error: string }).error
    : undefined;

const errorOf = ({ status, body }: Answer) => {
  const data = (body && typeof body === 'object' ? body : {}) as {
    message?: unknown;
    fields?: Record<string, string[]>;
    details?: Record<string, unknown>;
  };
  const message =
    (typeof data.message === 'string' && data.message) ||
    (typeof body === 'string' && body) ||
    `HTTP ${status}`;
  return new ApiError({
    status,
    code: codeOf(body),
    message,
    fields: data.fields,
    details: data.details,
  });
};

const isSessionAnswer = ({ status, body }: Answer) =>
  status === 401 ||
  (status === 403 && ['ERR_INVALID_TOKEN', 'ERR_COMPANY_INACTIVE'].includes(codeOf(body) ?? ''));

const post = (path: string, form: FormData, onProgress: (sent: number) => void) =>
  new Promise<Answer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${getApiUrl()}${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    // Everything is sent: the server reads the sheet and judges its rows now.
    xhr.upload.addEventListener('load', () => onProgress(1));
    xhr.addEventListener('load', () =>
      resolve({ status: xhr.status, body: parseBody(String(xhr.responseText ?? '')), token }),
    );
    const failed = () =>
      reject(new ApiError({ status: 0, code: NETWORK_ERROR, message: 'Network error' }));
    xhr.addEventListener('error', failed);
    xhr.addEventListener('timeout', failed);
    xhr.addEventListener('abort', failed);
    xhr.send(form);
  });

// `onProgress` gets the share of the file sent, 0 to 1; at 1 the server is processing the rows.
export const uploadContactListSheet = async (
  contactListId: number,
  file: File,
  onProgress: (sent: number) => void,
): Promise<ContactListUploadResult> => {
  const route = contactListsContract.uploadContactList;
  const params = { id: contactListId };
  const answer = await post(routePath(route, params), formOf(file), onProgress);
  if (isSessionAnswer(answer)) {
    onProgress(1);
    // A refresh that fails is left to the client, which then signs out (or not, when offline).
    if (codeOf(answer.body) === 'ERR_INVALID_TOKEN' && getToken() === answer.token)
      await refreshSession().catch(() => undefined);
    return call(route, { params, body: formOf(file) });
  }
  if (answer.status < 200 || answer.status >= 300) throw errorOf(answer);
  return answer.body as ContactListUploadResult;
};
