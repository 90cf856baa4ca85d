import { Slider } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { VOLUME_STEP } from '../../lib/volume';

export const VolumeSlider = ({
  value,
  onChange,
}: {
  value: number;
  onChange: (event: Event, value: number | number[]) => void;
}) => {
  const { t } = useTranslation();
  return (
    <Slider
      value={value}
      min={0}
      max={1}
      step={VOLUME_STEP}
      onChange={onChange}
      valueLabelDisplay="auto"
      aria-label={t('topBar.volume')}
      data-testid="volume-slider"
    />
  );
};
