import { DUE_WARNING_DAYS } from '@atendi/shared';
import { toast } from 'react-toastify';
import { i18n } from '../../i18n/i18n';
import { daysUntil, formatDate } from '../../lib/dates';

// SPEC §4 Subscription warning: a toast when the due date is fewer than 5 days away.
export const warnIfDueSoon = (dueDate: string | null | undefined) => {
  const days = daysUntil(dueDate);
  if (days === null || days >= DUE_WARNING_DAYS) return;
  const text =
    days < 0
      ? i18n.t('subscription.expiredOn', { date: formatDate(dueDate) })
      : i18n.t('subscription.expiresIn', { count: days });
  toast.warn(text, { toastId: 'due-date-warning' });
};
