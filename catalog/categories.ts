/** The report categories: the route's third path segment. */
import type { Category } from './schema.ts';

/**
 * `order` follows the spec's category list; `internal`, missing from that list although its routes exist, is an
 * ordinary category placed after `images` (guide §5.3).
 */
export const categories: readonly Category[] = [
  { id: 'analytics', label: 'Analytics', icon: 'chart-bar', order: 0, isHidden: false, isHreflangOnly: false },
  { id: 'canonical', label: 'Canonical', icon: 'arrows-join', order: 1, isHidden: false, isHreflangOnly: false },
  { id: 'content', label: 'Content', icon: 'file-text', order: 2, isHidden: false, isHreflangOnly: false },
  { id: 'crawl', label: 'Crawl', icon: 'spider', order: 3, isHidden: false, isHreflangOnly: false },
  { id: 'external', label: 'External', icon: 'external-link', order: 4, isHidden: true, isHreflangOnly: false },
  { id: 'hreflang', label: 'Hreflang', icon: 'language', order: 5, isHidden: false, isHreflangOnly: true },
  { id: 'images', label: 'Images', icon: 'photo', order: 6, isHidden: true, isHreflangOnly: false },
  { id: 'internal', label: 'Internal', icon: 'home', order: 7, isHidden: false, isHreflangOnly: false },
  { id: 'links', label: 'Links', icon: 'link', order: 8, isHidden: false, isHreflangOnly: false },
  { id: 'meta', label: 'Meta', icon: 'tags', order: 9, isHidden: false, isHreflangOnly: false },
  { id: 'performance', label: 'Performance', icon: 'gauge', order: 10, isHidden: false, isHreflangOnly: false },
  { id: 'redirects', label: 'Redirects', icon: 'arrow-forward-up', order: 11, isHidden: false, isHreflangOnly: false },
  { id: 'schema', label: 'Schema', icon: 'code', order: 12, isHidden: false, isHreflangOnly: false },
  {
    id: 'search-console',
    label: 'Search Console',
    icon: 'brand-google',
    order: 13,
    isHidden: false,
    isHreflangOnly: false,
  },
  { id: 'security', label: 'Security', icon: 'shield-lock', order: 14, isHidden: true, isHreflangOnly: false },
  { id: 'sitemap', label: 'Sitemap', icon: 'sitemap', order: 15, isHidden: false, isHreflangOnly: false },
  {
    id: 'status-code',
    label: 'Status Code',
    icon: 'alert-triangle',
    order: 16,
    isHidden: false,
    isHreflangOnly: false,
  },
  // Not in the spec's list: issue 30 §3's report of ad spend landing on broken pages needs an ads source.
  { id: 'ads', label: 'Ads', icon: 'coin', order: 17, isHidden: false, isHreflangOnly: false },
];
