import { Box, CircularProgress, IconButton, Stack, Typography } from '@mui/material';
import CancelOutlinedIcon from '@mui/icons-material/HighlightOff';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import { useTranslation } from 'react-i18next';
import { formatDuration, type RecorderState } from './composer-audio';

// What replaces the input while a voice note is recorded or sent (SPEC §4 Audio recording).
export const RecordingBar = ({
  state,
  seconds,
  onCancel,
  onSend,
}: {
  state: Exclude<RecorderState, 'idle'>;
  seconds: number;
  onCancel: () => void;
  onSend: () => void;
}) => {
  const { t } = useTranslation();
  if (state === 'sending') {
    return (
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'center',
          flex: 1,
          px: 1,
          minHeight: 40,
        }}
      >
        <CircularProgress size={20} aria-label={t('tickets.composer.audioSending')} />
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('tickets.composer.audioSending')}
        </Typography>
      </Stack>
    );
  }
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        alignItems: 'center',
        justifyContent: 'flex-end',
        flex: 1,
        minHeight: 40,
      }}
    >
      <IconButton aria-label={t('tickets.composer.audioCancel')} color="error" onClick={onCancel}>
        <CancelOutlinedIcon />
      </IconButton>
      <Box
        aria-hidden
        sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'error.main', flexShrink: 0 }}
      />
      <Typography
        variant="body2"
        role="timer"
        aria-label={t('tickets.composer.audioRecording')}
        sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 40 }}
      >
        {formatDuration(seconds)}
      </Typography>
      <IconButton aria-label={t('tickets.composer.audioSend')} color="success" onClick={onSend}>
        <CheckCircleOutlineIcon />
      </IconButton>
    </Stack>
  );
};
