import { useState } from 'react';
import { Box, IconButton, Popover, Slider, Tooltip } from '@mui/material';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { useTranslation } from 'react-i18next';
import { readVolume, VOLUME_STEP, writeVolume } from '../../lib/volume';

export const VolumeControl = () => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(readVolume);

  const onChange = (_event: Event, value: number | number[]) => {
    const next = Array.isArray(value) ? value[0] : value;
    setVolume(next);
    writeVolume(next);
  };

  return (
    <>
      <Tooltip title={t('topBar.volume')}>
        <IconButton
          color="inherit"
          aria-label={t('topBar.volume')}
          data-testid="volume-button"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        transformOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Box sx={{ width: 200, px: 3, py: 2 }}>
          <Slider
            value={volume}
            min={0}
            max={1}
            step={VOLUME_STEP}
            onChange={onChange}
            valueLabelDisplay="auto"
            aria-label={t('topBar.volume')}
            data-testid="volume-slider"
          />
        </Box>
      </Popover>
    </>
  );
};
