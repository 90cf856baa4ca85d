import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../lib/bytes';

// From this share on, the bar turns amber (and red when full).
const NEARLY_FULL = 0.8;

// A company's stored files against its plan's storage (limit 0: unlimited), as text and a bar.
export const StorageUsage = ({
  used,
  limit,
  compact = false,
}: {
  used: number;
  limit: number;
  compact?: boolean;
}) => {
  const { t, i18n } = useTranslation();
  const usedText = formatBytes(used, i18n.language);
  if (limit <= 0)
    return (
      <Typography variant="body2" data-testid="storage-usage">
        {t('storage.unlimited', { used: usedText })}
      </Typography>
    );
  const share = used / limit;
  const percent = Math.min(100, Math.round(share * 100));
  const colour = share >= 1 ? 'error' : share >= NEARLY_FULL ? 'warning' : 'primary';
  const text = t('storage.usage', { used: usedText, limit: formatBytes(limit, i18n.language) });
  return (
    <Stack spacing={0.5} sx={{ minWidth: compact ? 120 : undefined }} data-testid="storage-usage">
      <Stack
        direction="row"
        spacing={1}
        sx={{
          justifyContent: 'space-between',
        }}
      >
        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          {text}
        </Typography>
        {!compact && (
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('storage.percent', { percent })}
          </Typography>
        )}
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={colour}
        aria-label={`${t('storage.title')}: ${text}`}
        sx={{ height: compact ? 4 : 8, borderRadius: 1 }}
      />
      {!compact && share >= NEARLY_FULL && (
        <Box>
          <Typography variant="body2" color={share >= 1 ? 'error' : 'warning.main'}>
            {t(share >= 1 ? 'storage.full' : 'storage.nearlyFull')}
          </Typography>
        </Box>
      )}
    </Stack>
  );
};
