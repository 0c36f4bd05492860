import type { ClipboardEvent } from 'react';
import { Anchor, Text, type MantineSize } from '@mantine/core';
import { useWebsiteDomain } from '../lib/dashboard-context.ts';
import { displayUrl } from '../lib/url-display.ts';
import { ToneBadge } from './tone-badge.tsx';

/** Copying text picked inside the URL (all or part of what is shown) copies the full URL instead. */
function copyFullUrl(event: ClipboardEvent<HTMLElement>, full: string): void {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return;
  if (!event.currentTarget.contains(selection.getRangeAt(0).commonAncestorContainer)) return;
  event.clipboardData.setData('text/plain', full);
  event.preventDefault();
}

/**
 * Every URL the dashboard shows (table cells, sub-rows, dialogs): the website's own pages as their path (an 'http'
 * badge before those over plain http), other URLs in full (lib/url-display.ts), on one line cut at its end; the full
 * URL on hover, as the link and when copied.
 */
export function UrlText({ url, size = 'sm', isLink = true }: { url: string; size?: MantineSize; isLink?: boolean }) {
  const shown = displayUrl(url, useWebsiteDomain());
  const common = {
    size,
    title: shown.full,
    truncate: 'end' as const,
    display: 'block',
    maw: '100%',
    miw: 0,
    onCopy: (event: ClipboardEvent<HTMLElement>) => copyFullUrl(event, shown.full),
    'data-url': shown.full,
  };
  const text =
    isLink && /^https?:\/\//i.test(url) ? (
      <Anchor href={url} target="_blank" rel="noopener noreferrer" c="brand.8" {...common}>
        {shown.text}
      </Anchor>
    ) : (
      <Text span {...common}>
        {shown.text}
      </Text>
    );
  if (!shown.isInsecure) return text;
  return (
    <span style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0, maxWidth: '100%' }}>
      <ToneBadge tone="orange" size="xs" style={{ flex: 'none' }} title="Plain http://, not https://">
        http
      </ToneBadge>
      {text}
    </span>
  );
}
