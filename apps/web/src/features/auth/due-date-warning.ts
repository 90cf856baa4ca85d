import { DUE_WARNING_DAYS, type CompanyStatus } from '@atendi/shared';
import { toast } from 'react-toastify';
import { i18n } from '../../i18n/i18n';
import { daysUntil, formatDate } from '../../lib/dates';

// Runs once the app's texts are here: a session restored on a page load can be ready before them.
const whenTextsReady = (show: () => void) => {
  if (i18n.isInitialized) {
    show();
    return;
  }
  const onReady = () => {
    i18n.off('initialized', onReady);
    show();
  };
  i18n.on('initialized', onReady);
};

// SPEC §4 Subscription warning: a toast when the due date is fewer than 5 days away. A suspended or
// cancelled company is told why on the restricted-access page; its due date is not the reason.
export const warnIfDueSoon = (dueDate: string | null | undefined, status: CompanyStatus) => {
  const days = daysUntil(dueDate);
  if (days === null || days >= DUE_WARNING_DAYS) return;
  if (status !== 'active' && status !== 'overdue') return;
  whenTextsReady(() => {
    const text =
      days < 0
        ? i18n.t('subscription.expiredOn', { date: formatDate(dueDate) })
        : i18n.t('subscription.expiresIn', { count: days });
    toast.warn(text, { toastId: 'due-date-warning' });
  });
};
