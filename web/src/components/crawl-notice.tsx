import { Alert } from '@mantine/core';
import { Icon } from './icon.tsx';

/** A fact about the crawl the rows depend on (no sitemap found), said once above them. */
export function CrawlNotice({ notice }: { notice: string | undefined }) {
  return notice ? (
    <Alert color="blue" variant="light" radius="md" icon={<Icon name="sitemap" size={20} />} role="status">
      {notice}
    </Alert>
  ) : null;
}
