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
  // Filled badges and buttons on a light colour (yellow, lime) get dark text instead of white.
  autoContrast: true,
});

/** The colour of error text that stands alone (not in an Alert), readable in both colour modes. */
export const ERROR_TEXT = 'var(--verity-error-text)';

/** Where Mantine keeps the colour-mode preference (system, light or dark), per browser. */
export const COLOR_SCHEME_STORAGE_KEY = 'verity.color-scheme';

/**
 * Contrast fixes for light mode (WCAG AA, checked by axe in the browser tests):
 * - "dimmed" text is gray 7 (#495057, 8:1 on white) instead of gray 6 (3.3:1); gray 5 in dark mode (8:1);
 * - the text of `light` and `outline` variants (status badges, alerts) is shade 9 darkened by a third: Mantine's
 *   shade 9 on its own light tint is only 2.7:1 for yellow and 3.8:1 for green. Dark mode keeps Mantine's values;
 * - links are cerulean shade 7 (#006a91): cerulean itself is 4.8:1 on white but 4.29:1 on a table's hovered row
 *   (gray 1), and every list's links sit on striped and hovered rows. Shade 7 is 5.4:1 there;
 * - error text (`ERROR_TEXT`) is red 8 in light mode and red 4 in dark mode: red 8 on the dark body is under 4.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = (current) => {
  const readable: Record<string, string> = {};
  for (const color of Object.keys(current.colors)) {
    const darker = `color-mix(in srgb, var(--mantine-color-${color}-9) 66%, black)`;
    readable[`--mantine-color-${color}-light-color`] = darker;
    readable[`--mantine-color-${color}-outline`] = darker;
  }
  return {
    variables: {},
    light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--verity-error-text': 'var(--mantine-color-red-8)', '--mantine-color-anchor': 'var(--mantine-color-cerulean-7)', ...readable },
    dark: { '--mantine-color-dimmed': 'var(--mantine-color-gray-5)', '--verity-error-text': 'var(--mantine-color-red-4)' },
  };
};
