import { useId, useRef, type KeyboardEvent, type Ref } from 'react';
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
import { colorPalette, cssColor, isCssColor, normalizeColor } from '../lib/colors';

export const ColorSwatch = ({ color, size = 20 }: { color: string; size?: number }) => (
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

const nextKeys: Record<string, number> = {
  ArrowRight: 1,
  ArrowDown: 1,
  ArrowLeft: -1,
  ArrowUp: -1,
};

// The one colour field of the app (queues, tags): a palette of presets and a hex field with a
// swatch of what it holds. Not <input type="color">, whose picker speaks the browser's language and
// not the app's. The palette is a radio group: Tab enters it once, the arrows move between the
// colours that can be picked. `usedBy` names the owner of each colour that cannot be picked (a
// queue's colour is its own), as a sentence ("En uso por la cola Ventas").
export const ColorField = ({
  label,
  value,
  onChange,
  onBlur,
  inputRef,
  usedBy,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  // Normalised colour → who has it.
  usedBy?: Map<string, string>;
  error?: string;
}) => {
  const { t } = useTranslation();
  const labelId = useId();
  const group = useRef<HTMLDivElement>(null);
  const selected = isCssColor(value) ? normalizeColor(value) : null;
  const pickable = colorPalette.filter((color) => !usedBy?.has(color));
  // The one colour Tab lands on: the chosen one, or the first that can be picked.
  const tabStop = selected && pickable.includes(selected) ? selected : pickable[0];

  const move = (event: KeyboardEvent, from: string) => {
    const step = nextKeys[event.key];
    let target: string | undefined;
    if (step) {
      const index = pickable.indexOf(from);
      target = pickable[(index + step + pickable.length) % pickable.length];
    } else if (event.key === 'Home') target = pickable[0];
    else if (event.key === 'End') target = pickable.at(-1);
    if (!target) return;
    event.preventDefault();
    onChange(target);
    group.current?.querySelector<HTMLElement>(`[data-color="${target}"]`)?.focus();
  };

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" id={labelId} sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Box
        ref={group}
        role="radiogroup"
        aria-labelledby={labelId}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
      >
        {colorPalette.map((color) => {
          const owner = usedBy?.get(color);
          const isSelected = selected === color;
          const name = t('colorField.pick', { color });
          return (
            <Tooltip key={color} title={owner ?? color}>
              <span>
                <ButtonBase
                  role="radio"
                  data-color={color}
                  aria-label={owner ? `${name}. ${owner}` : name}
                  aria-checked={isSelected}
                  disabled={Boolean(owner)}
                  tabIndex={color === tabStop ? 0 : -1}
                  onClick={() => onChange(color)}
                  onKeyDown={(event) => move(event, color)}
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
        label={t('colorField.hex', { label })}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        inputRef={inputRef}
        autoComplete="off"
        error={Boolean(error)}
        helperText={error ?? t('colorField.hint')}
        sx={{ maxWidth: 260 }}
        slotProps={{
          htmlInput: { maxLength: 9, spellCheck: false },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <ColorSwatch color={cssColor(value)} />
              </InputAdornment>
            ),
          },
        }}
      />
    </Stack>
  );
};
