import { Chip } from '@mui/material';
import EventIcon from '@mui/icons-material/EventOutlined';
import WarningIcon from '@mui/icons-material/WarningAmberOutlined';
import { DUE_WARNING_DAYS } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import { daysUntil, formatDate } from '../../lib/dates';

// SPEC §4: the top-bar banner warns at 5 days or fewer before the due date.
export const SubscriptionBanner = () => {
  const { t } = useTranslation();
  const { companyDueDate, user } = useCurrentSession();
  const dueDate = companyDueDate ?? user.company?.dueDate;
  const days = daysUntil(dueDate);
  if (days === null) return null;
  const isWarning = days <= DUE_WARNING_DAYS;
  const label =
    days < 0
      ? t('subscription.bannerExpired', { date: formatDate(dueDate) })
      : isWarning
        ? t('subscription.bannerWarning', { date: formatDate(dueDate), count: days })
        : t('subscription.banner', { date: formatDate(dueDate) });
  return (
    <Chip
      data-testid="subscription-banner"
      icon={isWarning ? <WarningIcon /> : <EventIcon />}
      label={label}
      color={isWarning ? 'warning' : 'default'}
      variant={isWarning ? 'filled' : 'outlined'}
      sx={{
        display: { xs: 'none', md: 'inline-flex' },
        color: isWarning ? undefined : 'inherit',
        borderColor: isWarning ? undefined : 'rgba(255,255,255,0.5)',
        '& .MuiChip-icon': { color: 'inherit' },
      }}
    />
  );
};
