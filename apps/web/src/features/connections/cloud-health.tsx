import { Chip, Stack, Tooltip, Typography, type ChipProps } from '@mui/material';
import { messagingLimitTiers, type WhatsappView } from '@atendi/shared';
import { useTranslation } from 'react-i18next';

type Quality = { level: 'high' | 'medium' | 'low' | 'unknown'; color: ChipProps['color'] };

// Meta's quality ratings; UNKNOWN, and any rating Meta adds later, read as unknown.
const qualities: Record<string, Quality> = {
  GREEN: { level: 'high', color: 'success' },
  YELLOW: { level: 'medium', color: 'warning' },
  RED: { level: 'low', color: 'error' },
};
const unknownQuality: Quality = { level: 'unknown', color: 'default' };

type Props = {
  connection: Pick<WhatsappView, 'provider' | 'cloudQualityRating' | 'cloudMessagingLimit'>;
};

// Issue 39: what Meta says of a Cloud API number, its quality rating and its messaging limit tier
// (how many conversations it may start in 24 hours, which campaigns wait for). Nothing on other
// providers, nor before Meta said. The tooltips describe the child, so that its own text stays its
// name.
export const CloudNumberHealth = ({ connection }: Props) => {
  const { t, i18n } = useTranslation();
  const { cloudQualityRating: rating, cloudMessagingLimit: tier } = connection;
  if (connection.provider !== 'cloud' || (!rating && !tier)) return null;

  const quality = rating ? (qualities[rating] ?? unknownQuality) : null;
  const allowed = tier ? messagingLimitTiers[tier] : undefined;
  // Grouped even in Spanish, which leaves four digits alone: 1.000 reads as the tier Meta calls 1K.
  const limitText =
    allowed === undefined
      ? t('connections.health.limitOther', { tier })
      : allowed === Number.POSITIVE_INFINITY
        ? t('connections.health.unlimited')
        : t('connections.health.limit', {
            limit: new Intl.NumberFormat(i18n.language, { useGrouping: 'always' }).format(allowed),
          });

  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      {quality && (
        <Tooltip describeChild title={t('connections.health.qualityHint')}>
          <Chip
            size="small"
            variant="outlined"
            color={quality.color}
            label={t(`connections.health.quality.${quality.level}`)}
          />
        </Tooltip>
      )}
      {tier && (
        <Tooltip describeChild title={t('connections.health.limitHint')}>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {limitText}
          </Typography>
        </Tooltip>
      )}
    </Stack>
  );
};
