import { createTheme, type MantineColorsTuple } from '@mantine/core';
import { BREAKPOINTS } from '../../catalog/constants.ts';

const em = (px: number): string => `${px / 16}em`;

/** A deep petrol blue: calm, professional, enough contrast for text on white at shade 7+. */
const brand: MantineColorsTuple = [
  '#e6f4f8',
  '#cfe5ec',
  '#a0cad9',
  '#6daec5',
  '#4496b4',
  '#2a88aa',
  '#1a7a9d',
  '#0b6787',
  '#005b79',
  '#004e69',
];

/**
 * Mantine's breakpoint keys shifted onto the spec's: Mantine xs = spec sm (575), sm = md (768), md = lg (992),
 * lg = xl (1200), xl = xxl (1400).
 */
export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '650' },
  defaultRadius: 'sm',
  breakpoints: {
    xs: em(BREAKPOINTS.sm),
    sm: em(BREAKPOINTS.md),
    md: em(BREAKPOINTS.lg),
    lg: em(BREAKPOINTS.xl),
    xl: em(BREAKPOINTS.xxl),
  },
  fontSizes: { xs: '0.75rem', sm: '0.8125rem', md: '0.875rem', lg: '1rem', xl: '1.125rem' },
  cursorType: 'pointer',
});
