import { useState } from 'react';
import { Box, IconButton, Popover, Tooltip } from '@mui/material';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { useTranslation } from 'react-i18next';
import { lazyComponent } from '../../lib/lazy-component';
import { readVolume, writeVolume } from '../../lib/volume';

// MUI's Slider is fetched when the popover first opens: only this popover in the shell uses it.
const VolumeSlider = lazyComponent(() =>
  import('./volume-slider').then((module) => module.VolumeSlider),
);

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
          <VolumeSlider value={volume} onChange={onChange} />
        </Box>
      </Popover>
    </>
  );
};
