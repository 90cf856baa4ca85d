import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

// Stand-in for screens that later issues build; keeps every route reachable and titled.
export const PlaceholderPage = ({ titleKey }: { titleKey: string }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t(titleKey)}
      </Typography>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">{t('pages.coming')}</Typography>
      </Paper>
    </Stack>
  );
};
