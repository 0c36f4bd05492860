import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { SourceImport } from '../../../../catalog/data-source-calls.ts';
import { formatNumber } from '../../../../catalog/format.ts';

export interface RemoveImportDialogProps {
  record: SourceImport | undefined;
  title: string;
  isRemoving: boolean;
  onClose: () => void;
  onConfirm: (record: SourceImport) => void;
}

/** "Remove this import?": its rows leave the source and the crawls that joined them are refreshed. */
export function RemoveImportDialog({ record, title, isRemoving, onClose, onConfirm }: RemoveImportDialogProps) {
  return (
    <Modal
      opened={record !== undefined}
      onClose={onClose}
      title="Remove this import?"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {record ? (
        <Stack gap="md">
          <Text size="sm">
            The {formatNumber(record.rows)} rows of {record.files.join(', ')} leave {title}, and the crawls that joined
            them are refreshed. Rows this import replaced do not come back; removing the last import leaves {title} not
            connected.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Keep it
            </Button>
            <Button color="red.8" loading={isRemoving} onClick={() => onConfirm(record)} data-testid="confirm-remove">
              Remove import
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
