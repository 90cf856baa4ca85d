import type { Ref } from 'react';
import {
  Box,
  ButtonBase,
  InputAdornment,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import { cssColor, isCssColor, normalizeColor } from '../../lib/colors';
import { colorPalette } from './queue-form.schema';

const Swatch = ({ color, size = 20 }: { color: string; size?: number }) => (
  <Box
    component="span"
    sx={{
      display: 'inline-block',
      width: size,
      height: size,
      borderRadius: '50%',
      bgcolor: color,
      border: 1,
      borderColor: 'divider',
      flexShrink: 0,
    }}
  />
);

export const ColorSwatch = Swatch;

// A palette of presets plus a hex field; colours another queue uses cannot be picked (they must be unique).
export const ColorPicker = ({
  value,
  onChange,
  onBlur,
  inputRef,
  usedBy,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  // Normalised colour → name of the queue that has it.
  usedBy: Map<string, string>;
  error?: string;
}) => {
  const { t } = useTranslation();
  const selected = isCssColor(value) ? normalizeColor(value) : null;
  return (
    <Stack spacing={1.5}>
      <Typography
        variant="body2"
        id="queue-color-palette"
        sx={{
          color: 'text.secondary',
        }}
      >
        {t('queues.form.palette')}
      </Typography>
      <Box
        role="group"
        aria-labelledby="queue-color-palette"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
      >
        {colorPalette.map((color) => {
          const owner = usedBy.get(color);
          const isSelected = selected === color;
          return (
            <Tooltip
              key={color}
              title={owner ? t('queues.form.colorUsedBy', { name: owner }) : color}
            >
              <span>
                <ButtonBase
                  aria-label={t('queues.form.pickColor', { color })}
                  aria-pressed={isSelected}
                  disabled={Boolean(owner)}
                  onClick={() => onChange(color)}
                  sx={{
                    width: 30,
                    height: 30,
                    borderRadius: '50%',
                    bgcolor: color,
                    color: (theme) => theme.palette.getContrastText(color),
                    opacity: owner ? 0.45 : 1,
                    outline: isSelected ? 2 : 0,
                    outlineColor: 'text.primary',
                    outlineOffset: 2,
                    '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main' },
                  }}
                >
                  {isSelected && <CheckIcon fontSize="small" />}
                  {owner && <BlockIcon fontSize="small" />}
                </ButtonBase>
              </span>
            </Tooltip>
          );
        })}
      </Box>
      <TextField
        label={t('queues.form.color')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        inputRef={inputRef}
        error={Boolean(error)}
        helperText={error ?? t('queues.form.colorHint')}
        sx={{ maxWidth: 260 }}
        slotProps={{
          htmlInput: { maxLength: 9, spellCheck: false },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Swatch color={cssColor(value)} />
              </InputAdornment>
            ),
          },
        }}
      />
    </Stack>
  );
};
