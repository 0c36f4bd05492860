import { useEffect } from 'react';
import { Anchor, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { CRAWLS_PATH, SECTION_PATH } from '../../lib/routes.ts';
import { formatUrlState } from '../../lib/url-state.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { useDataSourcesStore } from '../../stores/data-sources-store.ts';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { SourceCard } from './source-card.tsx';

/** How often the sources are read again while an import or a removal runs. */
export const POLL_MS = 1000;

/** Staff only: the website's marketing data sources, each with its coverage, imports, matched pages and uploads. */
export function DataSourcesPage() {
  const { website } = useDashboard();
  const websiteId = website.id;
  const state = useDataSourcesStore((s) => (s.websiteId === websiteId ? s.state : undefined));
  const load = useDataSourcesStore((s) => s.load);
  const answer = state?.status === 'success' || state?.status === 'pending' ? state.data : undefined;
  const isRunning = answer?.jobs.some((j) => j.status === 'running') === true;

  useEffect(() => {
    void load(websiteId);
  }, [websiteId, load]);

  useEffect(() => {
    if (!isRunning) return;
    const timer = window.setInterval(() => void load(websiteId, { isRefresh: true }), POLL_MS);
    return () => window.clearInterval(timer);
  }, [isRunning, websiteId, load]);

  const section = `${SECTION_PATH}${formatUrlState({ website: websiteId })}`;
  return (
    <Stack gap="md" maw={1200}>
      <header>
        <Group gap="xs" align="baseline" wrap="wrap">
          <Title order={1} fz={{ base: 22, sm: 26 }} lh={1.2}>
            Data sources
          </Title>
          <Text size="sm" c="dimmed" fw={500}>
            {website.domain}
          </Text>
        </Group>
        <Text size="sm" c="dark.4" mt={4} maw={820}>
          Import the platforms&apos; own exports for {website.name}: each crawl of the{' '}
          <Anchor component={Link} href={section} size="sm" underline="always">
            Technical Health Check
          </Anchor>{' '}
          joins the rows of its data window, and the reports that need a source stay &quot;not connected&quot; until it
          is.
          {answer ? (
            <>
              {' '}
              Crawls made here join the {answer.dataWindowDays} days before their crawl date (
              <Anchor
                component={Link}
                href={`${CRAWLS_PATH}${formatUrlState({ website: websiteId })}`}
                size="sm"
                underline="always"
              >
                crawl settings
              </Anchor>
              ).
            </>
          ) : null}
        </Text>
      </header>
      {state?.status === 'error' && !answer ? (
        <FetchErrorPanel area="data sources" onRetry={() => void load(websiteId)} />
      ) : !answer ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }} aria-busy="true" aria-label="Loading the data sources">
          <Skeleton h={260} radius="md" />
          <Skeleton h={260} radius="md" />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {answer.sources.map((source) => (
            <SourceCard
              key={source.id}
              websiteId={websiteId}
              source={source}
              job={answer.jobs.find((j) => j.source === source.id)}
              isBusy={isRunning}
              onChanged={() => void load(websiteId, { isRefresh: true })}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
