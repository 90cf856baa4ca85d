import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { CssBaseline, ThemeProvider, type PaletteMode } from '@mui/material';
import { readStorage, storageKeys, writeStorage } from '../lib/storage';
import { createAppTheme } from './theme';

type ThemeModeValue = { mode: PaletteMode; toggleMode: () => void };

const ThemeModeContext = createContext<ThemeModeValue>({
  mode: 'light',
  toggleMode: () => undefined,
});

const storedMode = (): PaletteMode =>
  readStorage(storageKeys.theme) === 'dark' ? 'dark' : 'light';

export const ThemeModeProvider = ({ children }: { children: ReactNode }) => {
  const [mode, setMode] = useState<PaletteMode>(storedMode);

  useEffect(() => {
    // Lets e2e tests and global CSS see the theme without reading MUI internals.
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
    writeStorage(storageKeys.theme, mode);
  }, [mode]);

  const toggleMode = useCallback(() => {
    setMode((current) => (current === 'dark' ? 'light' : 'dark'));
  }, []);

  const theme = useMemo(() => createAppTheme(mode), [mode]);
  const value = useMemo(() => ({ mode, toggleMode }), [mode, toggleMode]);

  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
};

export const useThemeMode = () => useContext(ThemeModeContext);
