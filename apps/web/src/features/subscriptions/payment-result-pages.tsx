import { Button } from '@mui/material';
import CancelIcon from '@mui/icons-material/CancelOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutline';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/message-page';

export const PaymentSuccessPage = () => {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<CheckCircleIcon color="success" sx={{ fontSize: 56 }} />}
      title={t('payment.successTitle')}
      text={t('payment.successText')}
      action={
        <Button variant="contained" component={RouterLink} to="/subscriptions">
          {t('payment.toSubscriptions')}
        </Button>
      }
    />
  );
};

export const PaymentCancelPage = () => {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<CancelIcon color="error" sx={{ fontSize: 56 }} />}
      title={t('payment.cancelTitle')}
      text={t('payment.cancelText')}
      action={
        <Button variant="outlined" component={RouterLink} to="/subscriptions">
          {t('payment.toSubscriptions')}
        </Button>
      }
    />
  );
};
