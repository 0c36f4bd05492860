import type { ReactNode } from 'react';
import { ActionIcon, Alert, Menu, Skeleton, Table, Text, VisuallyHidden, type TableProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Icon } from '../../components/icon.tsx';
import type { LoadState } from '../../lib/load-state.ts';
import classes from './admin-table.module.css';

/**
 * Below this viewport width the less important columns fold into the first cell, so that at 768 px a table fits
 * beside its Status and actions instead of scrolling them out of view.
 */
export const FOLD_BELOW_PX = 900;
/** Where a folded table still scrolls sideways (a phone); its actions column stays in view, stuck to the right. */
const FOLDED_MIN_WIDTH = 520;

export interface AdminColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Less important: below FOLD_BELOW_PX a "header value" line in the first cell instead of a column. */
  isFolded?: boolean;
  width?: number;
  wrap?: 'nowrap' | 'anywhere';
}

const wrapStyle = (wrap: AdminColumn<unknown>['wrap']) =>
  wrap === 'nowrap'
    ? { whiteSpace: 'nowrap' as const }
    : wrap === 'anywhere'
      ? { overflowWrap: 'anywhere' as const }
      : undefined;

interface AdminTableProps<T> {
  rows: readonly T[];
  /** The first is the row's subject; the folded columns are shown under it on a narrow screen. */
  columns: readonly [AdminColumn<T>, ...AdminColumn<T>[]];
  rowKey: (row: T) => string | number;
  rowTestId?: (row: T) => string;
  /** The row's actions: a compact menu or button, in a last column that is always in view. */
  actions?: (row: T) => ReactNode;
  /** Shown in a row of its own when there are no rows; no row when absent. */
  empty?: string;
  /** Below it the wide table scrolls sideways. */
  minWidth: number;
  tableProps?: TableProps;
}

/** The administration lists' table: a row a user, website, session, segment or audit entry. */
export function AdminTable<T>({
  rows,
  columns,
  rowKey,
  rowTestId,
  actions,
  empty,
  minWidth,
  tableProps,
}: AdminTableProps<T>) {
  const isNarrow = useMediaQuery(`(max-width: ${FOLD_BELOW_PX - 0.02}px)`, false, { getInitialValueInEffect: false });
  const [first, ...rest] = columns;
  const shown = isNarrow ? rest.filter((c) => !c.isFolded) : rest;
  const folded = isNarrow ? rest.filter((c) => c.isFolded) : [];
  const span = 1 + shown.length + (actions ? 1 : 0);
  return (
    <Table.ScrollContainer minWidth={isNarrow ? FOLDED_MIN_WIDTH : minWidth}>
      <Table verticalSpacing="sm" fz="sm" {...tableProps}>
        <Table.Thead>
          <Table.Tr>
            {[first, ...shown].map((c) => (
              <Table.Th key={c.header} w={c.width}>
                {c.header}
              </Table.Th>
            ))}
            {actions ? (
              <Table.Th className={classes.actions}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && empty ? (
            <Table.Tr>
              <Table.Td colSpan={span}>
                <Text size="sm" c="dimmed" ta="center" py="md">
                  {empty}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
              <Table.Td style={wrapStyle(first.wrap)}>
                {first.cell(row)}
                {folded.length > 0 ? (
                  <div className={classes.folded} data-testid="folded">
                    {folded.map((c) => (
                      <span key={c.header} className={classes.foldedItem}>
                        <span className={classes.foldedLabel}>{c.header}</span>
                        {c.cell(row)}
                      </span>
                    ))}
                  </div>
                ) : null}
              </Table.Td>
              {shown.map((c) => (
                <Table.Td key={c.header} style={wrapStyle(c.wrap)}>
                  {c.cell(row)}
                </Table.Td>
              ))}
              {actions ? <Table.Td className={classes.actions}>{actions(row)}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A row's actions behind one compact button named "Actions for <subject>". */
export function RowActionsMenu({ subject, children }: { subject: string; children: ReactNode }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${subject}`}>
          <Icon name="chevron-down" size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}

/** What a list panel shows before its list is there: a placeholder while it loads, the reason when it failed. */
export function AdminListFallback({ state, what }: { state: LoadState<unknown>; what: string }) {
  return state.status === 'error' ? (
    <Alert color="red" title={`The ${what} could not be loaded`}>
      {state.error}
    </Alert>
  ) : (
    <Skeleton h={160} radius="md" aria-label={`Loading the ${what}`} />
  );
}

/** A first cell's subject: its name in bold, and below it what tells it apart (an id, a role, a target). */
export function CellTitle({ title, detail }: { title: ReactNode; detail?: ReactNode }) {
  return (
    <>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {detail === undefined ? null : (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </>
  );
}
