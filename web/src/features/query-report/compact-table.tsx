import type { ReactNode } from 'react';
import { ScrollArea, Table, Text } from '@mantine/core';

export interface CompactColumn<T> {
  id: string;
  label: string;
  isNumeric?: boolean;
  render: (row: T) => ReactNode;
}

/** A dense, scrollable table of a source's rows (top 100 at most, as the call answers). */
export function CompactTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  maxHeight = 220,
  testId,
}: {
  caption: string;
  columns: readonly CompactColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  maxHeight?: number;
  testId?: string;
}) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" fw={600} c="dark.5" mb={2}>
        {caption}
      </Text>
      <ScrollArea.Autosize mah={maxHeight} type="auto" offsetScrollbars>
        <Table
          striped
          highlightOnHover
          stickyHeader
          verticalSpacing={3}
          horizontalSpacing={6}
          fz="xs"
          data-testid={testId}
          style={{ tableLayout: 'auto' }}
        >
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.id} ta={c.isNumeric ? 'right' : 'left'} style={{ whiteSpace: 'nowrap' }}>
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((c) => (
                  <Table.Td
                    key={c.id}
                    data-column={c.id}
                    ta={c.isNumeric ? 'right' : 'left'}
                    style={
                      c.isNumeric
                        ? { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }
                        : {
                            maxWidth: 0,
                            width: '100%',
                            overflow: 'hidden',
                            textOverflow: 'ellipsis',
                            whiteSpace: 'nowrap',
                          }
                    }
                  >
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </div>
  );
}
