import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { SegmentForm } from './segment-form.tsx';
import { GOAL_LABELS } from './website-settings.ts';

/** A website's segments: each with its scope and settings, to change or remove; and a form to add one. */
export function SegmentsDialog({
  website,
  onClose,
  onDone,
}: {
  website: Website | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  /** The segment being edited, 'new' while adding, null otherwise. */
  const [editing, setEditing] = useState<string | null>(null);
  const remove = useAdminCommand(onDone);
  const close = () => {
    setEditing(null);
    remove.setError(null);
    onClose();
  };
  const segment = website?.segments.find((s) => s.id === editing);
  return (
    <Modal
      opened={website !== undefined}
      onClose={close}
      title={website ? `Segments of ${website.name}` : ''}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {website ? (
        <Stack gap="md">
          <Table.ScrollContainer minWidth={620}>
            <Table fz="sm" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Segment</Table.Th>
                  <Table.Th>URL scope</Table.Th>
                  <Table.Th>Hreflang</Table.Th>
                  <Table.Th>AI</Table.Th>
                  <Table.Th>Goal</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {website.segments.map((s) => (
                  <Table.Tr key={s.id} data-testid={`admin-segment-${s.id}`}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {s.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {s.id}
                        {s.isDefault ? ' (default)' : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>{s.urlScope ?? 'The whole site'}</Table.Td>
                    <Table.Td>{s.isHreflang ? 'On' : 'Off'}</Table.Td>
                    <Table.Td>{s.isAi ? 'On' : 'Off'}</Table.Td>
                    <Table.Td>{s.goalType ? GOAL_LABELS[s.goalType] : 'None'}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="compact-xs" variant="default" onClick={() => setEditing(s.id)}>
                          Edit
                        </Button>
                        {s.isDefault ? null : (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="red"
                            aria-label={`Remove segment ${s.name}`}
                            onClick={() =>
                              void remove.run({ command: 'segment remove', website: website.id, id: s.id })
                            }
                          >
                            Remove
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {remove.error ? <Alert color="red">{remove.error.message}</Alert> : null}
          {editing === null ? (
            <Group justify="flex-end">
              <Button size="sm" variant="default" onClick={() => setEditing('new')}>
                Add segment
              </Button>
            </Group>
          ) : (
            <Paper withBorder p="md" radius="md">
              <SegmentForm
                key={editing}
                websiteId={website.id}
                segment={segment}
                onDone={onDone}
                onCancel={() => setEditing(null)}
              />
            </Paper>
          )}
        </Stack>
      ) : null}
    </Modal>
  );
}
