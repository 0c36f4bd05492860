import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { SegmentForm } from './segment-form.tsx';
import { type AdminDialogProps, AdminModal } from './command-form.tsx';
import { AdminTable, CellTitle } from './admin-table.tsx';
import { GOAL_LABELS } from './website-settings.ts';

/** A website's segments: each with its scope and settings, to change or remove; and a form to add one. */
export function SegmentsDialog({ website, onClose, onDone }: { website: Website | undefined } & AdminDialogProps) {
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
    <AdminModal
      opened={website !== undefined}
      onClose={close}
      title={website ? `Segments of ${website.name}` : ''}
      size="xl"
    >
      {website ? (
        <Stack gap="md">
          <AdminTable
            rows={website.segments}
            columns={[
              {
                header: 'Segment',
                cell: (s) => <CellTitle title={s.name} detail={`${s.id}${s.isDefault ? ' (default)' : ''}`} />,
              },
              { header: 'URL scope', cell: (s) => s.urlScope ?? 'The whole site', wrap: 'anywhere' },
              { header: 'Hreflang', cell: (s) => (s.isHreflang ? 'On' : 'Off'), isFolded: true },
              { header: 'AI', cell: (s) => (s.isAi ? 'On' : 'Off'), isFolded: true },
              { header: 'Goal', cell: (s) => (s.goalType ? GOAL_LABELS[s.goalType] : 'None'), isFolded: true },
            ]}
            rowKey={(s) => s.id}
            rowTestId={(s) => `admin-segment-${s.id}`}
            actions={(s) => (
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
                    onClick={() => void remove.run({ command: 'segment remove', website: website.id, id: s.id })}
                  >
                    Remove
                  </Button>
                )}
              </Group>
            )}
            minWidth={620}
            tableProps={{ verticalSpacing: 'xs', style: { '--admin-table-bg': 'var(--mantine-color-body)' } }}
          />
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
    </AdminModal>
  );
}
