import type { ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { theme } from '../theme.ts';

/** Renders inside the app's Mantine theme (component tests run in happy-dom). */
export function renderWithTheme(ui: ReactNode): RenderResult {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    });
  }
  return render(ui, { wrapper: ({ children }) => <MantineProvider theme={theme}>{children}</MantineProvider> });
}
