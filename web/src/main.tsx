import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE_MS } from '../../catalog/constants.ts';
import './styles.ts';
import { theme } from './theme.ts';
import { App } from './app.tsx';

/** Mantine's dimmed grey (gray.6) is below WCAG AA on white; this one reads at about 6:1. */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636b' },
  dark: {},
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      {/* Bottom right: the page's own actions (Start now, Cancel, Approve, Export) sit at the top right. */}
      <Notifications position="bottom-right" autoClose={TOAST_AUTO_CLOSE_MS} limit={4} zIndex={1000} />
      <App />
    </MantineProvider>
  </StrictMode>,
);
