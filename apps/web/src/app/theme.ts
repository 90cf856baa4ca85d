import { createTheme, type PaletteMode } from '@mui/material/styles';

export const createAppTheme = (mode: PaletteMode) =>
  createTheme({
    palette: {
      mode,
      primary: { main: mode === 'light' ? '#0b7a75' : '#4fc3b5' },
      secondary: { main: mode === 'light' ? '#3f51b5' : '#9fa8da' },
      background:
        mode === 'light'
          ? { default: '#f4f6f8', paper: '#ffffff' }
          : { default: '#0f1418', paper: '#161d22' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Inter", "Roboto", "Segoe UI", "Helvetica Neue", Arial, sans-serif',
      h1: { fontWeight: 600 },
      h4: { fontWeight: 600 },
      h5: { fontWeight: 600 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiAppBar: { defaultProps: { elevation: 0 } },
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiListItemButton: {
        styleOverrides: { root: { borderRadius: 8 } },
      },
    },
  });
