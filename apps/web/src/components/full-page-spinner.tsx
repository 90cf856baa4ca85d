import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

export const FullPageSpinner = () => {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      aria-label={t('app.loading')}
      sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}
    >
      <CircularProgress />
    </Box>
  );
};
