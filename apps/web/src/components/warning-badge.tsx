import { Box, IconButton, Tooltip } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';

// A warning beside a row's name (what last failed), read by its text on hover, focus or a screen reader.
// With onClick it is a button leading to what explains the failure.
export const WarningBadge = ({ text, onClick }: { text: string; onClick?: () => void }) => (
  <Tooltip title={text}>
    {onClick ? (
      <IconButton
        size="small"
        aria-label={text}
        onClick={onClick}
        sx={{ p: 0.25, color: 'warning.main' }}
      >
        <WarningAmberIcon fontSize="small" />
      </IconButton>
    ) : (
      <Box
        component="span"
        role="img"
        aria-label={text}
        tabIndex={0}
        sx={{ display: 'inline-flex', color: 'warning.main' }}
      >
        <WarningAmberIcon fontSize="small" />
      </Box>
    )}
  </Tooltip>
);
