// Mirrors the colour scheme as a class on <html> ("light" or "dark") beside Mantine's own
// data-mantine-color-scheme attribute: stylesheets and tests written for class-based theming (the
// template's among them) read the class.
import { useComputedColorScheme } from '@mantine/core';
import { useEffect } from 'react';

export function ColorSchemeClass() {
  const scheme = useComputedColorScheme('light');
  useEffect(() => {
    const root = document.documentElement.classList;
    root.remove(scheme === 'dark' ? 'light' : 'dark');
    root.add(scheme);
  }, [scheme]);
  return null;
}
