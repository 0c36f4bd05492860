import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Icon } from '../../components/icon.tsx';
import { CLIENT_PENDING_COPY, CLIENT_PENDING_TITLE } from './approval-copy.ts';

/** Clients see no data until a crawl is approved (spec §4, §6). */
export function ClientPendingPanel() {
  return (
    <Paper withBorder radius="md" p="xl" data-testid="client-pending">
      <Stack gap="sm" align="flex-start" maw={640}>
        <ThemeIcon size={44} radius="xl" variant="light" color="brand" aria-hidden>
          <Icon name="clock" size={24} />
        </ThemeIcon>
        <Title order={2} fz="h3">
          {CLIENT_PENDING_TITLE}
        </Title>
        <Text size="sm" c="dark.5">
          {CLIENT_PENDING_COPY}
        </Text>
      </Stack>
    </Paper>
  );
}
