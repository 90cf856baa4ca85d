import { Box, Tooltip } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';

// A warning beside a row's name (what last failed), read by its text on hover, focus or a screen reader.
export const WarningBadge = ({ text }: { text: string }) => (
  <Tooltip title={text}>
    <Box
      component="span"
      role="img"
      aria-label={text}
      tabIndex={0}
      sx={{ display: 'inline-flex', color: 'warning.main' }}
    >
      <WarningAmberIcon fontSize="small" />
    </Box>
  </Tooltip>
);
