import { Alert, AlertTitle, Chip } from '@mui/material';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import { useTranslation } from 'react-i18next';
import type { CampaignView } from '@atendi/shared';
import { formatDateTime } from '../../lib/dates';

type Held = NonNullable<CampaignView['held']>;

// Issue 39: a running campaign waits for its number's limit (the Cloud API number's tier, or on
// WhatsApp Web the daily cap or a new number's warm-up). Said as why and when it sends again, in the
// app's dd/MM/yyyy HH:mm, so that a campaign that stopped moving does not look stuck.
const useHeldText = (held: Held) => {
  const { t } = useTranslation();
  return t('campaigns.held.text', {
    reason: t(`campaigns.held.reasons.${held.reason}`),
    date: formatDateTime(held.until),
  });
};

// In the campaigns list, under the campaign's name: the text wraps instead of widening the table.
export const CampaignHeldChip = ({ held }: { held: Held }) => {
  const text = useHeldText(held);
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      icon={<HourglassTopIcon aria-hidden />}
      label={text}
      sx={{
        height: 'auto',
        maxWidth: '100%',
        '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 },
      }}
    />
  );
};

// On the report, above the figures: the same text, and what the limit is.
export const CampaignHeldAlert = ({ held }: { held: Held }) => {
  const { t } = useTranslation();
  const text = useHeldText(held);
  return (
    <Alert severity="warning" icon={<HourglassTopIcon />}>
      <AlertTitle>{text}</AlertTitle>
      {t(`campaigns.held.explanations.${held.reason}`)}
    </Alert>
  );
};
