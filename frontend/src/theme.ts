// Monochrome palette (spec §1): near-black primary in light mode, near-white in dark mode;
// autoContrast keeps button text readable on either.
import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'gray',
  primaryShade: { light: 9, dark: 1 },
  autoContrast: true,
  defaultRadius: 'sm',
});

/** Remembers the chosen colour scheme across visits; light is the default. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'color-scheme' });
