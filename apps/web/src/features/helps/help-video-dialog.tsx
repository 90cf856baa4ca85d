import { Box, Typography } from '@mui/material';
import { embedUrl, type HelpVideo } from '../../lib/help-videos';
import { DialogFrame, DialogView } from '../../components/dialog-frame';

// The video plays in a modal; Escape or "Cerrar" ends it.
export const HelpVideoDialog = ({
  open,
  help,
  onClose,
}: {
  open: boolean;
  help: HelpVideo | null;
  onClose: () => void;
}) => (
  <DialogFrame open={open && Boolean(help)} onClose={onClose} maxWidth="md">
    <DialogView title={help?.title}>
      {open && help && (
        <Box
          sx={{
            position: 'relative',
            width: '100%',
            aspectRatio: '16 / 9',
            bgcolor: 'common.black',
            borderRadius: 1,
            overflow: 'hidden',
          }}
        >
          <Box
            component="iframe"
            src={embedUrl(help.video)}
            title={help.title}
            allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
            allowFullScreen
            sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
          />
        </Box>
      )}
      {help?.description && (
        <Typography
          sx={{
            color: 'text.secondary',
            mt: 2,
            whiteSpace: 'pre-line',
          }}
        >
          {help.description}
        </Typography>
      )}
    </DialogView>
  </DialogFrame>
);
