import { Button } from '@mui/material';
import LockClockIcon from '@mui/icons-material/LockClockOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MessagePage } from '../../components/message-page';

export const RestrictedAccessPage = () => {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<LockClockIcon color="warning" sx={{ fontSize: 56 }} />}
      title={t('restricted.title')}
      text={t('restricted.text')}
      action={
        <Button variant="contained" component={RouterLink} to="/subscriptions">
          {t('restricted.renew')}
        </Button>
      }
    />
  );
};
