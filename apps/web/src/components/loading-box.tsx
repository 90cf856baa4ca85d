import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

// A spinner in place of content that is still loading.
export const LoadingBox = () => {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      aria-label={t('app.loading')}
      sx={{ display: 'grid', placeItems: 'center', py: 6 }}
    >
      <CircularProgress />
    </Box>
  );
};
