import { memo } from 'react';
import { Group, Progress, Text } from '@mantine/core';
import type { CatalogColumn, ReportDefinition } from '../../../../catalog/schema.ts';
import { ChecklistCell } from './checklist-cell.tsx';
import { cellText, hopKind, listItems, redirectHops, statusColour } from '../../../../catalog/cell-format.ts';
import { asText, toNumber } from '../../../../catalog/format.ts';
import { clampRank, rankBand, bandColor } from '../../lib/rank.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { UrlText } from '../../components/url-text.tsx';
import { displayUrl } from '../../lib/url-display.ts';
import { useWebsiteDomain } from '../../lib/dashboard-context.ts';
import { AiSuggestionCell } from './ai-suggestion-cell.tsx';
import { QueryReportButton } from '../query-report/query-report-button.tsx';
import type { ReportRow } from '../../api/report-rows.ts';
import classes from './report-table.module.css';

function Empty() {
  return (
    <span className={classes.empty} aria-label="No value">
      –
    </span>
  );
}

/** Images and headings: the count, then the items on one line; image URLs through the one URL formatter. */
function ListCell({ value }: { value: unknown }) {
  const domain = useWebsiteDomain();
  const items = listItems(value);
  if (items.length === 0) return <Empty />;
  return (
    <Text span size="sm" title={items.join('\n')} truncate="end" display="block">
      {items.length > 1 ? (
        <Text span size="xs" c="dark.4" fw={600} mr={4}>
          {items.length}×
        </Text>
      ) : null}
      {listItems(value, (url) => displayUrl(url, domain).text).join(' · ')}
    </Text>
  );
}

const rowKeys = new WeakMap<ReportRow, number>();
let lastRowKey = 0;

/**
 * A key of its own for each row object. The table keeps its row elements from page to page (keyed by position), so a
 * cell with state of its own (a fetched suggestion, an open dialog) is keyed by its row to start afresh on a new row.
 */
function keyOf(row: ReportRow): number {
  let key = rowKeys.get(row);
  if (key === undefined) rowKeys.set(row, (key = ++lastRowKey));
  return key;
}

/**
 * One table cell, drawn by the column's display format (spec §3). Memoised: while the next page loads, the table
 * renders again with the same rows, and their cells need not.
 */
export const ReportCell = memo(function ReportCell({
  report,
  column,
  value,
  row,
}: {
  report: ReportDefinition;
  column: CatalogColumn;
  value: unknown;
  row: ReportRow;
}) {
  const { format } = column;
  if (column.id === 'checked') return <ChecklistCell report={report} row={row} value={value} />;
  if (format === 'ai-suggestion') return <AiSuggestionCell key={keyOf(row)} column={column} row={row} />;
  if (value === null || value === undefined || value === '') {
    return format === 'status-code' ? (
      <ToneBadge tone="gray" size="sm">
        No response
      </ToneBadge>
    ) : (
      <Empty />
    );
  }
  if (column.isQuery && typeof value === 'string') return <QueryReportButton key={keyOf(row)} query={value} />;
  switch (format) {
    case 'boolean':
      return value === true ? (
        <Icon name="check" size={16} stroke={2.6} color="var(--mantine-color-green-8)" title="Yes" />
      ) : (
        <Icon name="x" size={16} stroke={2.4} color="var(--mantine-color-red-8)" title="No" />
      );
    case 'status-code':
      return (
        <ToneBadge
          tone={statusColour(value)}
          size="sm"
          data-status-colour={statusColour(value)}
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          {cellText(value, format)}
        </ToneBadge>
      );
    case 'url':
      return <UrlText url={asText(value)} />;
    case 'rank-bar': {
      const rank = clampRank(toNumber(value) ?? 0);
      return (
        <Group gap={6} wrap="nowrap" w="100%">
          <Progress
            value={Math.max(rank, 2)}
            color={bandColor(rankBand(rank).colour)}
            size="sm"
            style={{ flex: 1 }}
            aria-hidden
          />
          <Text span size="xs" fw={600} w={24} ta="right">
            {rank}
          </Text>
        </Group>
      );
    }
    case 'redirect-chain': {
      const hops = redirectHops(value);
      if (hops.length === 0) return <Empty />;
      return (
        <Group gap={4} wrap="nowrap" title={cellText(value, format)} style={{ overflow: 'hidden' }}>
          <Text span size="xs" c="dark.4" fw={600} style={{ flex: 'none' }}>
            {hops.length} hop{hops.length === 1 ? '' : 's'}:
          </Text>
          {hops.map((hop, index) => (
            <ToneBadge
              key={index}
              size="xs"
              tone={hop.is_js_redirect || hop.is_meta_redirect ? 'yellow' : statusColour(hop.status_code)}
              style={{ flex: 'none' }}
            >
              {hopKind(hop)}
            </ToneBadge>
          ))}
        </Group>
      );
    }
    case 'image-list':
    case 'heading-list':
      return <ListCell value={value} />;
    default: {
      const text = cellText(value, format);
      return (
        <span className={classes.cellText} title={text.length > 30 ? text : undefined}>
          {text}
        </span>
      );
    }
  }
});
