import type { Theme } from '@mui/material/styles';

// The smallest target a thumb hits reliably on a touch screen (WCAG 2.5.5, Apple's guidelines).
export const THUMB_PX = 44;

// An `sx` part for a phone layout (the inbox, its drawer and dialogs): below `sm` every button, icon
// button, switch's label and small field inside is at least a thumb's size. MUI's compact sizes
// (a small icon button is about 30 px, a small button 31 px high) stay as they are on wider screens,
// where a mouse points.
export const thumbSized = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& .MuiIconButton-root, & .MuiButton-root, & .MuiFormControlLabel-root, & .MuiInputBase-sizeSmall':
      { minWidth: THUMB_PX, minHeight: THUMB_PX },
  },
});
