import { useState } from 'react';
import { Button, CircularProgress, Stack, Typography } from '@mui/material';
import CancelIcon from '@mui/icons-material/CancelOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutlined';
import HourglassIcon from '@mui/icons-material/HourglassTopOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isCompanyActive, useCurrentSession } from '../../api/session';
import { isCurrentSubscription } from '../../components/billing-tables';
import { MessagePage } from '../../components/message-page';
import { useLiveSubscriptions, useSubscriptionsOverview } from './subscriptions.api';

// /success?session_id=…: the provider took the payment; the subscription starts when its webhook
// reaches the API, which then emits the company's new status (the shell applies it to the session).
export const PaymentSuccessPage = () => {
  const { t } = useTranslation();
  const session = useCurrentSession();
  const isActive = isCompanyActive(session);
  // A company that was already active (a trial) has paid once its subscription shows up.
  const [wasActive] = useState(isActive);
  const overview = useSubscriptionsOverview();
  useLiveSubscriptions();
  const hasSubscription = overview.data?.subscriptions.some(isCurrentSubscription) ?? false;
  const isConfirmed = isActive && (!wasActive || hasSubscription || overview.isError);

  if (isConfirmed) {
    return (
      <MessagePage
        icon={<CheckCircleIcon color="success" sx={{ fontSize: 56 }} />}
        title={t('payment.activeTitle')}
        text={t('payment.activeText')}
        action={
          <Button variant="contained" component={RouterLink} to="/tickets">
            {t('payment.toTickets')}
          </Button>
        }
      />
    );
  }
  return (
    <MessagePage
      icon={<HourglassIcon color="primary" sx={{ fontSize: 56 }} />}
      title={t('payment.successTitle')}
      text={t('payment.successText')}
      action={
        <Stack
          spacing={2}
          sx={{
            alignItems: 'center',
          }}
        >
          <Stack
            direction="row"
            spacing={1}
            role="status"
            sx={{
              alignItems: 'center',
            }}
          >
            <CircularProgress size={20} />
            <Typography>{t('payment.confirming')}</Typography>
          </Stack>
          <Button variant="outlined" component={RouterLink} to="/subscriptions">
            {t('payment.toSubscriptions')}
          </Button>
        </Stack>
      }
    />
  );
};

// /cancel: the customer left the provider's page; nothing was charged.
export const PaymentCancelPage = () => {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<CancelIcon color="error" sx={{ fontSize: 56 }} />}
      title={t('payment.cancelTitle')}
      text={t('payment.cancelText')}
      action={
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <Button variant="contained" component={RouterLink} to="/subscribe">
            {t('payment.tryAgain')}
          </Button>
          <Button variant="outlined" component={RouterLink} to="/subscriptions">
            {t('payment.toSubscriptions')}
          </Button>
        </Stack>
      }
    />
  );
};
