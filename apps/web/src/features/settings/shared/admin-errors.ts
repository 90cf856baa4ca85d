import { toast } from 'react-toastify';
import { ApiError } from '../../../api/http-client';
import { ERROR_TOAST_MS, errorText } from '../../../api/toasts';
import { i18n } from '../../../i18n/i18n';

// Codes that say exactly what went wrong; anything else gets SPEC §8's generic operation error.
const specificCodes = new Set([
  'ERR_COMPANY_ALREADY_EXISTS',
  'ERR_EMAIL_ALREADY_EXISTS',
  'ERR_PLAN_ALREADY_EXISTS',
  'ERR_PLAN_IN_USE',
  'ERR_NO_PLAN_FOUND',
  'ERR_CANNOT_DELETE_OWN_COMPANY',
  'ERR_NETWORK',
  'ERR_NO_PERMISSION',
  'ERR_SUPER_ONLY',
  // Billing: the server has no payment provider keys, or the provider refused or did not answer.
  'ERR_PAYMENTS_NOT_CONFIGURED',
  'ERR_PAYMENT_PROVIDER',
]);

const operationErrorText = (error: unknown) =>
  error instanceof ApiError && error.code && specificCodes.has(error.code)
    ? errorText(error)
    : i18n.t('settings.operationError');

// SPEC §8: company, plan and help screens report failed saves and deletes this way.
export const toastOperationError = (error: unknown) =>
  toast.error(operationErrorText(error), { autoClose: ERROR_TOAST_MS });
