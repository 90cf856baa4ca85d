import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MessagePage } from './message-page';

export const NotFoundPage = () => {
  const { t } = useTranslation();
  return (
    <MessagePage
      title={t('notFound.title')}
      text={t('notFound.text')}
      action={
        <Button variant="contained" component={RouterLink} to="/">
          {t('notFound.home')}
        </Button>
      }
    />
  );
};
