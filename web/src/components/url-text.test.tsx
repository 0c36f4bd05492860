// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { renderWithTheme } from '../test/render.tsx';
import { DashboardContext, type DashboardState } from '../lib/dashboard-context.ts';
import { UrlText } from './url-text.tsx';

afterEach(cleanup);

function onWebsite(domain: string, ui: ReactNode) {
  const state = { website: { id: 'w', name: 'W', domain, segments: [], modules: [] } } as unknown as DashboardState;
  return renderWithTheme(<DashboardContext.Provider value={state}>{ui}</DashboardContext.Provider>);
}

/** Selects the element's text and fires a copy event, as the browser does for Ctrl-C; returns what it copies. */
function copyFrom(element: HTMLElement): string {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
  const data = new DataTransfer();
  data.setData('text/plain', selection.toString());
  element.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
  return data.getData('text/plain');
}

describe('UrlText', () => {
  const own = 'https://www.northwind-outfitters.co.uk/walks/the-best-walks-in-the-lakes';

  it('shows a page of the website as its path, with the full URL as link, tooltip and copy text', () => {
    onWebsite('northwind-outfitters.co.uk', <UrlText url={own} />);
    const link = screen.getByRole('link');
    expect(link.textContent).toBe('/walks/the-best-walks-in-the-lakes');
    expect(link.getAttribute('href')).toBe(own);
    expect(link.getAttribute('title')).toBe(own);
    expect(copyFrom(link)).toBe(own);
  });

  it('marks an own page over plain http with a badge before its path', () => {
    const insecure = 'http://www.northwind-outfitters.co.uk/products/ghyll-merino-softshell-10728';
    onWebsite('northwind-outfitters.co.uk', <UrlText url={insecure} />);
    expect(screen.getByRole('link').textContent).toBe('/products/ghyll-merino-softshell-10728');
    expect(screen.getByTitle('Plain http://, not https://').textContent).toBe('http');
  });

  it('shows another host in full, and plain text when it is not to be a link', () => {
    onWebsite('northwind-outfitters.co.uk', <UrlText url="https://www.gore-tex.com/technology" isLink={false} />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByTitle('https://www.gore-tex.com/technology').textContent).toBe(
      'https://www.gore-tex.com/technology',
    );
  });
});
