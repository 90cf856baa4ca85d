const CSS_HEX = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

// The API compares colours as lower-case text with a leading '#'.
export const normalizeColor = (color: string) => {
  const trimmed = color.trim().toLowerCase();
  return trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
};

export const isCssColor = (color: string) => CSS_HEX.test(normalizeColor(color));

// Stored colours the browser cannot paint fall back to a neutral grey.
export const cssColor = (color: string) => (isCssColor(color) ? normalizeColor(color) : '#9e9e9e');

// The colour field's presets (queues, tags); any other hex colour can be typed.
export const colorPalette = [
  '#e53935',
  '#d81b60',
  '#8e24aa',
  '#5e35b1',
  '#3949ab',
  '#1e88e5',
  '#039be5',
  '#00acc1',
  '#00897b',
  '#43a047',
  '#7cb342',
  '#c0ca33',
  '#fdd835',
  '#ffb300',
  '#fb8c00',
  '#f4511e',
  '#6d4c41',
  '#757575',
  '#546e7a',
  '#263238',
];
