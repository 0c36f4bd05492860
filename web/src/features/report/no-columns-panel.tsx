import { Button, Group, Stack, Text } from '@mantine/core';
import { Icon } from '../../components/icon.tsx';

/** In place of the table when every column is hidden: what happened, and the ways back. */
export function NoColumnsPanel({ onShowAll, onChoose }: { onShowAll: () => void; onChoose: () => void }) {
  return (
    <Stack align="center" gap="xs" px="md" py="xl" role="status" data-testid="no-columns">
      <Text size="sm" c="dark.5">
        Every column is hidden, so there is nothing to show for these rows.
      </Text>
      <Group gap="xs" justify="center">
        <Button size="xs" onClick={onShowAll} leftSection={<Icon name="columns" size={14} />}>
          Show all columns
        </Button>
        <Button size="xs" variant="default" onClick={onChoose}>
          Choose columns
        </Button>
      </Group>
    </Stack>
  );
}
