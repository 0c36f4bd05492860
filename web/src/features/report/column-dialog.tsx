import { ActionIcon, Button, Checkbox, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { Icon } from '../../components/icon.tsx';
import { moveColumn } from './table-model.ts';
import type { TablePreferences } from './use-table-preferences.ts';

export interface ColumnDialogProps {
  isOpen: boolean;
  onClose: () => void;
  columns: CatalogColumn[];
  order: string[];
  preferences: TablePreferences;
  onChange: (update: (current: TablePreferences) => TablePreferences) => void;
  onReset: () => void;
}

/** Column visibility with 'Toggle All' and per-column checkboxes, and reorder left/right (spec §2). */
export function ColumnDialog({ isOpen, onClose, columns, order, preferences, onChange, onReset }: ColumnDialogProps) {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const ordered = order.map((id) => byId.get(id)).filter((c): c is CatalogColumn => c !== undefined);
  const isVisible = (id: string) => preferences.visibility[id] !== false;
  const visibleCount = ordered.filter((c) => isVisible(c.id)).length;
  const isAll = visibleCount === ordered.length;

  return (
    <Modal
      opened={isOpen}
      onClose={onClose}
      title="Columns"
      size="md"
      closeButtonProps={{ 'aria-label': 'Close the column dialog' }}
    >
      <Stack gap="xs">
        <Group justify="space-between" px={4}>
          <Checkbox
            label="Toggle All"
            checked={isAll}
            indeterminate={!isAll && visibleCount > 0}
            onChange={() =>
              onChange((p) => ({
                ...p,
                visibility: Object.fromEntries(ordered.map((c) => [c.id, !isAll])),
              }))
            }
            fw={600}
          />
          <Button variant="subtle" size="compact-sm" onClick={onReset}>
            Reset layout
          </Button>
        </Group>
        <ScrollArea.Autosize mah="55vh" type="auto">
          <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {ordered.map((column, index) => (
              <Group
                key={column.id}
                component="li"
                justify="space-between"
                wrap="nowrap"
                py={4}
                px={4}
                style={{ borderBottom: '1px solid var(--mantine-color-gray-1)' }}
              >
                <Checkbox
                  label={
                    <span>
                      {column.title}{' '}
                      <Text span size="xs" c="dark.3">
                        {column.group}
                      </Text>
                    </span>
                  }
                  checked={isVisible(column.id)}
                  onChange={(e) => {
                    const checked = e.currentTarget.checked;
                    onChange((p) => ({ ...p, visibility: { ...p.visibility, [column.id]: checked } }));
                  }}
                />
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    color="gray.8"
                    size="sm"
                    disabled={index === 0}
                    onClick={() => onChange((p) => ({ ...p, order: moveColumn(order, column.id, -1) }))}
                    aria-label={`Move ${column.title} left`}
                  >
                    <Icon name="arrow-left" size={14} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="gray.8"
                    size="sm"
                    disabled={index === ordered.length - 1}
                    onClick={() => onChange((p) => ({ ...p, order: moveColumn(order, column.id, 1) }))}
                    aria-label={`Move ${column.title} right`}
                  >
                    <Icon name="arrow-right" size={14} />
                  </ActionIcon>
                </Group>
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}
