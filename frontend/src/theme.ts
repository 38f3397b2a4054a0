// Monochrome palette (spec §1): a near-black primary in light mode and a mid-dark grey in dark
// mode, both with white text (Mantine picks the filled text colour from the light shade only).
import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'gray',
  primaryShade: { light: 9, dark: 7 },
  defaultRadius: 'sm',
});

/** Remembers the chosen colour scheme across visits; light is the default. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'color-scheme' });
