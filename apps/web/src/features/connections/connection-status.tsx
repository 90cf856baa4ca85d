import { Stack, Tooltip, Typography } from '@mui/material';
import SignalWifi4BarIcon from '@mui/icons-material/SignalWifi4Bar';
import SignalWifiOffIcon from '@mui/icons-material/SignalWifiOff';
import type { ConnectionStatus } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { parseDate } from '../../lib/dates';

const pad = (value: number) => String(value).padStart(2, '0');

// SPEC §9: the connections table shows its last update as dd/MM/yy HH:mm.
export const formatLastUpdate = (value: string | null | undefined) => {
  const date = parseDate(value);
  if (!date) return '';
  const year = String(date.getFullYear()).slice(-2);
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${year} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

// SPEC §4: CONNECTED shows online; every other status shows offline.
export const ConnectionStatusLabel = ({ status }: { status: ConnectionStatus }) => {
  const { t } = useTranslation();
  const isOnline = status === 'CONNECTED';
  const Icon = isOnline ? SignalWifi4BarIcon : SignalWifiOffIcon;
  return (
    <Tooltip title={t(`connections.statusHints.${status}`)}>
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'center',
          display: 'inline-flex',
        }}
      >
        <Icon fontSize="small" color={isOnline ? 'success' : 'disabled'} aria-hidden />
        <Typography variant="body2" component="span">
          {t(`connections.statuses.${status}`)}
        </Typography>
      </Stack>
    </Tooltip>
  );
};
