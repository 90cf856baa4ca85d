const CSS_HEX = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

// The API compares colours as lower-case text with a leading '#'.
export const normalizeColor = (color: string) => {
  const trimmed = color.trim().toLowerCase();
  return trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
};

export const isCssColor = (color: string) => CSS_HEX.test(normalizeColor(color));

// Stored colours the browser cannot paint fall back to a neutral grey.
export const cssColor = (color: string) => (isCssColor(color) ? normalizeColor(color) : '#9e9e9e');
