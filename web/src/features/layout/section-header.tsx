import { Group, Text, Title } from '@mantine/core';
import { useDashboard } from './dashboard-context.ts';

/** Page title and intro of the section layout. */
export function SectionHeader() {
  const { website } = useDashboard();
  return (
    <header>
      <Group gap="xs" align="baseline" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 26 }} lh={1.2}>
          Technical Health Check
        </Title>
        <Text size="sm" c="dimmed" fw={500}>
          {website.domain}
        </Text>
      </Group>
      <Text size="sm" c="dark.4" mt={4} maw={820}>
        The technical issues each crawl of {website.name} found, ranked by severity and grouped by category, with the
        change since the crawl it is compared with.
      </Text>
    </header>
  );
}
