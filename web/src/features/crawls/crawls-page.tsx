import { lazy, Suspense } from 'react';
import { Anchor, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { SECTION_PATH } from '../../lib/routes.ts';
import { formatUrlState } from '../../lib/url-state.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';

// Staff only, and it brings the pattern engine (re2js) the settings form checks with: loaded when first shown.
const CrawlsContent = lazy(() => import('./crawls-content.tsx').then((m) => ({ default: m.CrawlsContent })));

/** Staff only: the website's crawl settings and schedule, Start now with live progress, and the history of runs. */
export function CrawlsPage() {
  const { website } = useDashboard();
  return (
    <Stack gap="md" maw={1200}>
      <header>
        <Group gap="xs" align="baseline" wrap="wrap">
          <Title order={1} fz={{ base: 22, sm: 26 }} lh={1.2}>
            Crawls
          </Title>
          <Text size="sm" c="dimmed" fw={500}>
            {website.domain}
          </Text>
        </Group>
        <Text size="sm" c="dark.4" mt={4} maw={820}>
          Crawl {website.name} from here, now or every week. Each finished crawl is loaded as a pending crawl of the{' '}
          <Anchor
            component={Link}
            href={`${SECTION_PATH}${formatUrlState({ website: website.id })}`}
            size="sm"
            underline="always"
          >
            Technical Health Check
          </Anchor>
          , where it waits for approval.
        </Text>
      </header>
      <Suspense fallback={<Skeleton h={120} radius="md" aria-label="Loading the crawl runs" />}>
        <CrawlsContent key={website.id} websiteId={website.id} />
      </Suspense>
    </Stack>
  );
}
