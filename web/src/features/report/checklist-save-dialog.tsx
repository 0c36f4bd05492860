import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { formatNumber } from '../../../../catalog/format.ts';
import { UrlText } from '../../components/url-text.tsx';
import type { ChecklistEdit } from './checklist-context.ts';

export interface ChecklistSaveDialogProps {
  isOpen: boolean;
  isSaving: boolean;
  edits: readonly ChecklistEdit[];
  onCancel: () => void;
  onConfirm: () => void;
}

const PREVIEW = 8;

function Items({ edits }: { edits: readonly ChecklistEdit[] }) {
  return (
    <List size="sm" spacing={2} listStyleType="disc">
      {edits.slice(0, PREVIEW).map((e) => (
        <List.Item key={`${e.item.url}${e.item.subKeys.join('|')}`}>
          <UrlText url={e.item.url} isLink={false} />
          {e.item.subKeys.length ? (
            <Text span size="xs" c="dark.4" display="block" truncate="end">
              {e.item.subKeys.join(', ')}
            </Text>
          ) : null}
        </List.Item>
      ))}
      {edits.length > PREVIEW ? <List.Item>and {formatNumber(edits.length - PREVIEW)} more</List.Item> : null}
    </List>
  );
}

/** Confirms what the save will check and uncheck (spec §4 checklist). */
export function ChecklistSaveDialog({ isOpen, isSaving, edits, onCancel, onConfirm }: ChecklistSaveDialogProps) {
  const toCheck = edits.filter((e) => e.checked);
  const toUncheck = edits.filter((e) => !e.checked);
  return (
    <Modal
      opened={isOpen}
      onClose={onCancel}
      title="Save the checklist"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close the checklist dialog' }}
    >
      <Stack gap="sm">
        {toCheck.length ? (
          <div>
            <Text size="sm" fw={600}>
              Mark {formatNumber(toCheck.length)} {toCheck.length === 1 ? 'row' : 'rows'} as checked
            </Text>
            <Items edits={toCheck} />
          </div>
        ) : null}
        {toUncheck.length ? (
          <div>
            <Text size="sm" fw={600}>
              Uncheck {formatNumber(toUncheck.length)} {toUncheck.length === 1 ? 'row' : 'rows'}
            </Text>
            <Items edits={toUncheck} />
          </div>
        ) : null}
        <Text size="xs" c="dark.3">
          Checked rows are hidden from this report unless ‘Show Checked Items’ is on.
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={isSaving}>
            Cancel
          </Button>
          <Button onClick={onConfirm} loading={isSaving}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
