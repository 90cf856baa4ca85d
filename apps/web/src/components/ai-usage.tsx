import { LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

// From this share on, the bar turns amber (and red when used up).
const NEARLY_USED = 0.8;

// Counts of AI answers with the thousands mark in every language ("1.234", where Spanish's own rule
// writes "1234"), so that a quota of 2.000 reads as one.
export const formatAiCount = (value: number, language: string) =>
  new Intl.NumberFormat(language, { useGrouping: 'always' }).format(value);

// The answers an AI agent sent this month against its plan's (limit 0: unlimited), as text and a bar.
export const AiMessagesUsage = ({ used, limit }: { used: number; limit: number }) => {
  const { t, i18n } = useTranslation();
  const usedText = formatAiCount(used, i18n.language);
  if (limit <= 0)
    return (
      <Typography variant="body2" data-testid="ai-messages-usage">
        {t('aiUsage.unlimited', { used: usedText })}
      </Typography>
    );
  const share = used / limit;
  const colour = share >= 1 ? 'error' : share >= NEARLY_USED ? 'warning' : 'primary';
  const limitText = formatAiCount(limit, i18n.language);
  return (
    <Stack spacing={0.5} sx={{ minWidth: 110 }} data-testid="ai-messages-usage">
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
        {t('aiUsage.usage', { used: usedText, limit: limitText })}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={Math.min(100, Math.round(share * 100))}
        color={colour}
        aria-label={t('aiUsage.label', { used: usedText, limit: limitText })}
        sx={{ height: 4, borderRadius: 1 }}
      />
    </Stack>
  );
};
