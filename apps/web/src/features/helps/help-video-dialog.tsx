import { Box, Dialog, DialogContent, DialogTitle, IconButton, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { embedUrl, type HelpVideo } from '../../lib/help-videos';

// The video plays in a modal; Escape or the close button ends it (MUI closes on Escape).
export const HelpVideoDialog = ({
  open,
  help,
  onClose,
}: {
  open: boolean;
  help: HelpVideo | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open && Boolean(help)}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="help-video-title"
    >
      <DialogTitle id="help-video-title" sx={{ pr: 6 }}>
        {help?.title}
        <IconButton
          aria-label={t('helps.close')}
          onClick={onClose}
          sx={{ position: 'absolute', right: 8, top: 8 }}
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
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
      </DialogContent>
    </Dialog>
  );
};
