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
