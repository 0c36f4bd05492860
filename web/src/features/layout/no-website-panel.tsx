import { Paper, Stack, Text, Title } from '@mantine/core';

/** The account has no websites, or the link names a website this account cannot see. */
export function NoWebsitePanel({ kind }: { kind: 'none' | 'unknown' }) {
  return (
    <Paper withBorder radius="md" p="xl" maw={640}>
      <Stack gap="xs">
        <Title order={1} fz="h3">
          {kind === 'none' ? 'No websites yet' : 'Website not available'}
        </Title>
        <Text size="sm" c="dimmed">
          {kind === 'none'
            ? 'Your account has no websites yet. Your account manager will add them once the first crawl is set up.'
            : 'The website in this link is not available to your account. Choose one of your websites from the menu above.'}
        </Text>
      </Stack>
    </Paper>
  );
}
