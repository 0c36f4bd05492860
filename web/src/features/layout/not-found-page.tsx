import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { SECTION_PATH } from '../../lib/routes.ts';

export function NotFoundPage() {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" radius="md" maw={440}>
        <Stack gap="sm">
          <Title order={1} size="h3">
            Page not found
          </Title>
          <Text size="sm" c="dimmed">
            There is nothing at this address.
          </Text>
          <Anchor component={Link} href={SECTION_PATH} size="sm">
            Go to the Technical Health Check overview
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
