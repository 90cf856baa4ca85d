import { Box, Stack, type SxProps, type Theme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Presence } from '@atendi/shared';

// Online green, away amber, offline grey.
const dotColor: Record<Presence, string> = {
  online: 'success.main',
  away: 'warning.main',
  offline: 'action.disabled',
};

// A person's presence as a coloured dot. Decoration for screen readers: where it stands, a text
// (beside it, or the description of its button) says the same.
export const PresenceDot = ({ presence, sx }: { presence: Presence; sx?: SxProps<Theme> }) => (
  <Box
    component="span"
    aria-hidden
    data-presence={presence}
    sx={[
      {
        display: 'inline-block',
        flexShrink: 0,
        width: 10,
        height: 10,
        borderRadius: '50%',
        bgcolor: dotColor[presence],
      },
      ...(Array.isArray(sx) ? sx : [sx]),
    ]}
  />
);

// The dot followed by its text ("En línea", "Ausente", "Desconectado"), e.g. in a table cell.
export const PresenceText = ({ presence }: { presence: Presence }) => {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <PresenceDot presence={presence} />
      <span>{t(`presence.${presence}`)}</span>
    </Stack>
  );
};
