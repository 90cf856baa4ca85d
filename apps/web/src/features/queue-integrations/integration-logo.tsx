import type { ReactNode } from 'react';
import { Avatar, Tooltip } from '@mui/material';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import WebhookIcon from '@mui/icons-material/Webhook';
import { useTranslation } from 'react-i18next';
import type { IntegrationType } from '@atendi/shared';

// Drawn here rather than loaded: the app's CSP allows no outside images, and brands change logos.
const looks: Record<IntegrationType, { color: string; mark: ReactNode }> = {
  typebot: { color: '#0042da', mark: <SmartToyOutlinedIcon fontSize="inherit" /> },
  n8n: { color: '#ea4b71', mark: 'n8n' },
  webhook: { color: '#455a64', mark: <WebhookIcon fontSize="inherit" /> },
  dialogflow: { color: '#ef6c00', mark: <ForumOutlinedIcon fontSize="inherit" /> },
};

// A small coloured badge per type, named for screen readers by the type's name; decorative beside
// a text that already names the type.
export const IntegrationLogo = ({
  type,
  size = 32,
  decorative = false,
}: {
  type: IntegrationType;
  size?: number;
  decorative?: boolean;
}) => {
  const { t } = useTranslation();
  const { color, mark } = looks[type];
  const name = t(`queueIntegrations.types.${type}`);
  const badge = (
    <Avatar
      variant="rounded"
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name })}
      sx={{
        width: size,
        height: size,
        bgcolor: color,
        color: '#fff',
        fontSize: typeof mark === 'string' ? size * 0.36 : size * 0.6,
        fontWeight: 700,
      }}
    >
      <span aria-hidden="true" style={{ display: 'inline-flex' }}>
        {mark}
      </span>
    </Avatar>
  );
  return decorative ? badge : <Tooltip title={name}>{badge}</Tooltip>;
};
