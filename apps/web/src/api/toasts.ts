import { toast } from 'react-toastify';
import { i18n } from '../i18n/i18n';
import { ApiError } from './http-client';

export const ERROR_TOAST_MS = 2000;
export const TOAST_MS = 3000;

// SPEC §8: the translated text for a known code, otherwise the server's own message.
export const errorText = (error: unknown): string => {
  if (error instanceof ApiError) {
    if (error.code && i18n.exists(`errors.${error.code}`)) {
      if (error.code === 'ERR_TOO_MANY_REQUESTS' && error.retryAfter !== undefined) {
        return i18n.t('errors.ERR_TOO_MANY_REQUESTS_RETRY', { count: error.retryAfter });
      }
      // SPEC §8: the other open ticket's owner and queue are named when someone holds it.
      const holder = (error.details?.user as { name?: string } | null | undefined)?.name;
      if (error.code === 'ERR_OTHER_OPEN_TICKET' && holder) {
        const queue = (error.details?.queue as { name?: string } | null | undefined)?.name;
        return i18n.t('errors.ERR_OTHER_OPEN_TICKET_HELD', {
          user: holder,
          queue: queue ?? i18n.t('errors.noQueue'),
        });
      }
      if (error.code === 'ERR_TICKET_TAKEN' && holder)
        return i18n.t('errors.ERR_TICKET_TAKEN_HELD', { user: holder });
      if (error.code === 'ERR_UPLOAD_REQUEST_TOO_LARGE')
        return i18n.t('errors.ERR_UPLOAD_REQUEST_TOO_LARGE', {
          maxMb: Number(error.details?.maxMb) || '?',
        });
      // Cloud API: a contact who never wrote has no window that could have closed.
      if (error.code === 'ERR_WAPP_WINDOW_CLOSED' && error.details?.closesAt === null)
        return i18n.t('errors.ERR_WAPP_WINDOW_CLOSED_NEVER');
      return i18n.t(`errors.${error.code}`);
    }
    if (error.message) return error.message;
  } else if (error instanceof Error && error.message) {
    return error.message;
  }
  return i18n.t('errors.unknown');
};

export const toastError = (error: unknown) =>
  toast.error(errorText(error), { autoClose: ERROR_TOAST_MS });
