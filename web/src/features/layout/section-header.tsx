import { Button, Group, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { CRAWLS_PATH, DATA_SOURCES_PATH } from '../../lib/routes.ts';
import { formatUrlState } from '../../lib/url-state.ts';
import { Icon } from '../../components/icon.tsx';
import { useDashboard } from '../../lib/dashboard-context.ts';

/** Page title and intro of the section layout; internal users also get the way to the website's Data sources and Crawls. */
export function SectionHeader() {
  const { website, isInternal } = useDashboard();
  return (
    <header>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
        <Group gap="xs" align="baseline" wrap="wrap">
          <Title order={1} fz={{ base: 22, sm: 26 }} lh={1.2}>
            Technical Health Check
          </Title>
          <Text size="sm" c="dimmed" fw={500}>
            {website.domain}
          </Text>
        </Group>
        {isInternal ? (
          <Group gap="xs" wrap="nowrap">
            <Button
              component={Link}
              href={`${DATA_SOURCES_PATH}${formatUrlState({ website: website.id })}`}
              variant="default"
              size="xs"
              leftSection={<Icon name="database" size={14} />}
              data-testid="data-sources-link"
            >
              Data sources
            </Button>
            <Button
              component={Link}
              href={`${CRAWLS_PATH}${formatUrlState({ website: website.id })}`}
              variant="default"
              size="xs"
              leftSection={<Icon name="spider" size={14} />}
              data-testid="crawls-link"
            >
              Crawls
            </Button>
          </Group>
        ) : null}
      </Group>
      <Text size="sm" c="dark.4" mt={4} maw={820}>
        The technical issues each crawl of {website.name} found, ranked by severity and grouped by category, with the
        change since the crawl it is compared with.
      </Text>
    </header>
  );
}
