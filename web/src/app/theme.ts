import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * Cerulean, the product's primary colour (spec point 1), as Mantine's ten shades. Shade 6 is cerulean itself
 * (#007BA7): white text on it is 4.8:1, enough for WCAG AA. Dark mode fills with shade 8 (white on it 7.3:1).
 */
export const CERULEAN: MantineColorsTuple = [
  '#e0f5fc',
  '#c2e8f6',
  '#8fd3ee',
  '#5cbee6',
  '#33acdf',
  '#1a9fd7',
  '#007ba7',
  '#006a91',
  '#005a7b',
  '#004a65',
];

export const theme = createTheme({
  primaryColor: 'cerulean',
  colors: { cerulean: CERULEAN },
  primaryShade: { light: 6, dark: 8 },
  defaultRadius: 'sm',
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  // Keyboard users see where they are; mouse users are not distracted by rings.
  focusRing: 'auto',
});

/** Where Mantine keeps the colour-mode preference (system, light or dark), per browser. */
export const COLOR_SCHEME_STORAGE_KEY = 'verity.color-scheme';

/**
 * Mantine's "dimmed" text (gray 6 on white, 3.3:1) fails WCAG AA for small text; ours is gray 7 in light mode
 * (#495057, 8:1) and gray 5 in dark mode (#adb5bd on the dark body, 8:1), so secondary text stays readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-gray-5)' },
});
