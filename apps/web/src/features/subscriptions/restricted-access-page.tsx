import { Button } from '@mui/material';
import LockClockIcon from '@mui/icons-material/LockClockOutlined';
import { Link as RouterLink, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { homePathFor, isCompanyActive, useCurrentSession } from '../../api/session';
import { MessagePage } from '../../components/message-page';

export const RestrictedAccessPage = () => {
  const { t } = useTranslation();
  const session = useCurrentSession();
  // The company became active (a payment, an operator's edit): nothing is restricted any more.
  if (isCompanyActive(session)) return <Navigate to={homePathFor(session)} replace />;
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
