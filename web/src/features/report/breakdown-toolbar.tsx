import { ActionIcon, Button, Group, Title, Tooltip } from '@mantine/core';
import { formatNumber } from '../../../../catalog/format.ts';
import { Icon } from '../../components/icon.tsx';

export interface BreakdownToolbarProps {
  editCount: number;
  onDiscardEdits: () => void;
  onSaveEdits: () => void;
  onRefreshTable: () => void;
  onChooseColumns: () => void;
  onDownloadCsv: () => void;
  isDownloadDisabled: boolean;
}

/** The breakdown's title and actions: the checklist's unsaved edits, refresh, columns and the CSV download. */
export function BreakdownToolbar(props: BreakdownToolbarProps) {
  const { editCount, onDiscardEdits, onSaveEdits, onRefreshTable, onChooseColumns, onDownloadCsv } = props;
  return (
    <Group justify="space-between" px="md" pt="md" pb={6} wrap="wrap" gap="xs">
      <Title order={3} fz="md" id="breakdown-title">
        Breakdown of issues
      </Title>
      <Group gap={6}>
        {editCount > 0 ? (
          <>
            <Button size="xs" variant="subtle" color="gray" c="dark.5" onClick={onDiscardEdits}>
              Discard changes
            </Button>
            <Button size="xs" onClick={onSaveEdits} leftSection={<Icon name="check" size={14} />}>
              Save checklist ({formatNumber(editCount)})
            </Button>
          </>
        ) : null}
        <Tooltip label="Refresh the table">
          <ActionIcon variant="default" onClick={onRefreshTable} aria-label="Refresh the table">
            <Icon name="refresh" size={16} />
          </ActionIcon>
        </Tooltip>
        <Button variant="default" size="xs" leftSection={<Icon name="columns" size={14} />} onClick={onChooseColumns}>
          Columns
        </Button>
        <Button
          variant="default"
          size="xs"
          leftSection={<Icon name="download" size={14} />}
          onClick={onDownloadCsv}
          disabled={props.isDownloadDisabled}
        >
          Download CSV
        </Button>
      </Group>
    </Group>
  );
}
