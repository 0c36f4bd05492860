import { Paper, Stack, Text, Title } from '@mantine/core';

/** Internal users, website without any crawl loaded yet. */
export function NoCrawlsPanel() {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack gap="xs" maw={640}>
        <Title order={2} fz="h3">
          No crawls yet
        </Title>
        <Text size="sm" c="dark.5">
          No crawl of this website has been loaded. Results appear here as soon as the first crawl is loaded.
        </Text>
      </Stack>
    </Paper>
  );
}
