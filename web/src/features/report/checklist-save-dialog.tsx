import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { formatNumber } from '../../../../catalog/format.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { UrlText } from '../../components/url-text.tsx';
import { columnById } from '../../lib/catalog.ts';
import type { ChecklistEdit } from './checklist-context.ts';

export interface ChecklistSaveDialogProps {
  report: Pick<ReportDefinition, 'keyColumns' | 'subKeyColumns'>;
  isOpen: boolean;
  isSaving: boolean;
  edits: readonly ChecklistEdit[];
  onCancel: () => void;
  onConfirm: () => void;
}

const PREVIEW = 8;

type KeyColumns = ChecklistSaveDialogProps['report'];

/** A row's key as the table shows it: each value under its column's title, URLs through the table's formatter. */
function KeyValue({ columnId, value }: { columnId: string; value: string }) {
  const column = columnById(columnId);
  return (
    <Group gap={6} wrap="nowrap" miw={0}>
      <Text span size="xs" c="dark.4" style={{ flex: 'none' }}>
        {column?.title ?? columnId}
      </Text>
      {column?.format === 'url' ? (
        <UrlText url={value} isLink={false} />
      ) : (
        <Text span size="sm" truncate="end" miw={0} title={value}>
          {value}
        </Text>
      )}
    </Group>
  );
}

function Items({ edits, report }: { edits: readonly ChecklistEdit[]; report: KeyColumns }) {
  return (
    <List size="sm" spacing={4} listStyleType="disc" styles={{ itemWrapper: { minWidth: 0, maxWidth: '100%' } }}>
      {edits.slice(0, PREVIEW).map((e) => (
        <List.Item key={`${e.item.url}${e.item.subKeys.join('|')}`} data-testid="checklist-item">
          <KeyValue columnId={report.keyColumns[0] ?? 'url'} value={e.item.url} />
          {report.subKeyColumns.map((id, index) => (
            <KeyValue key={id} columnId={id} value={e.item.subKeys[index] ?? ''} />
          ))}
        </List.Item>
      ))}
      {edits.length > PREVIEW ? <List.Item>and {formatNumber(edits.length - PREVIEW)} more</List.Item> : null}
    </List>
  );
}

/** Confirms what the save will check and uncheck (spec §4 checklist). */
export function ChecklistSaveDialog({
  report,
  isOpen,
  isSaving,
  edits,
  onCancel,
  onConfirm,
}: ChecklistSaveDialogProps) {
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
            <Items edits={toCheck} report={report} />
          </div>
        ) : null}
        {toUncheck.length ? (
          <div>
            <Text size="sm" fw={600}>
              Uncheck {formatNumber(toUncheck.length)} {toUncheck.length === 1 ? 'row' : 'rows'}
            </Text>
            <Items edits={toUncheck} report={report} />
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
