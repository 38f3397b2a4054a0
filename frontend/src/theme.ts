// Monochrome palette (docs/requirements.md, Who it is for): a near-black primary in light mode and a
// mid-dark grey in dark mode, both with white text (Mantine picks the filled text colour from the light
// shade only).
import { Anchor, createTheme, localStorageColorSchemeManager, Notification, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'gray',
  primaryShade: { light: 9, dark: 7 },
  defaultRadius: 'sm',
  // Modals, menus and toasts appear without their transitions for people whose system asks for less
  // motion (prefers-reduced-motion; WCAG 2.3.3).
  respectReducedMotion: true,
  // Links are told from text by more than colour (WCAG 1.4.1; axe's link-in-text-block).
  components: {
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // A toast's close button has a name, and its message under a title is the dimmed shade above,
    // not Mantine's lighter grey (3.3:1 on white; axe's button-name and color-contrast).
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
  },
});

/** Remembers the chosen colour scheme across visits; light is the default. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'color-scheme' });

/** Dimmed text one shade darker than Mantine's default, which is below WCAG AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] },
  dark: {},
});
