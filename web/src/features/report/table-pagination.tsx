import { ActionIcon, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { PAGE_SIZES } from '../../../../catalog/constants.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { Icon } from '../../components/icon.tsx';
import { GoToPageForm } from './go-to-page-form.tsx';
import { pageCountOf } from './table-model.ts';

export const PAGINATION_ERROR = 'Error!';

export interface TablePaginationProps {
  pageIndex: number;
  pageSize: number;
  total: number;
  isError: boolean;
  isPending: boolean;
  /** Said after the row range, e.g. where 'URLs containing' found its text. */
  note?: string | undefined;
  onPageIndex: (index: number) => void;
  onPageSize: (size: number) => void;
}

/** First/previous/next/last, 'Page X of Y', a go-to-page input and the page-size selector (spec §2, §5, §9). */
export function TablePagination({
  pageIndex,
  pageSize,
  total,
  isError,
  isPending,
  note,
  onPageIndex,
  onPageSize,
}: TablePaginationProps) {
  const pageCount = pageCountOf(total, pageSize);
  const canPrevious = !isError && pageIndex > 0;
  const canNext = !isError && pageIndex < pageCount - 1;
  const first = total === 0 ? 0 : pageIndex * pageSize + 1;
  const last = Math.min(total, (pageIndex + 1) * pageSize);

  return (
    <Group justify="space-between" gap="sm" px="md" py="xs" wrap="wrap" component="nav" aria-label="Table pages">
      <Stack gap={0} style={{ flex: '1 1 12rem' }}>
        <Text size="sm" c="dark.4" aria-live="polite" data-testid="row-range">
          {isError
            ? ''
            : isPending && total === 0
              ? 'Loading…'
              : `${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(total)} rows`}
        </Text>
        {note && !isError ? (
          <Text size="xs" c="dark.4" data-testid="filter-matches">
            {note}
          </Text>
        ) : null}
      </Stack>
      <Group gap={6} wrap="wrap">
        <Tooltip label="First page">
          <ActionIcon variant="default" onClick={() => onPageIndex(0)} disabled={!canPrevious} aria-label="First page">
            <Icon name="chevrons-left" size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Previous page">
          <ActionIcon
            variant="default"
            onClick={() => onPageIndex(pageIndex - 1)}
            disabled={!canPrevious}
            aria-label="Previous page"
          >
            <Icon name="chevron-left" size={16} />
          </ActionIcon>
        </Tooltip>
        <Text size="sm" fw={500} miw={96} ta="center" data-testid="page-label" c={isError ? 'red.8' : undefined}>
          {isError ? PAGINATION_ERROR : `Page ${formatNumber(pageIndex + 1)} of ${formatNumber(pageCount)}`}
        </Text>
        <Tooltip label="Next page">
          <ActionIcon
            variant="default"
            onClick={() => onPageIndex(pageIndex + 1)}
            disabled={!canNext}
            aria-label="Next page"
          >
            <Icon name="chevron-right" size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Last page">
          <ActionIcon
            variant="default"
            onClick={() => onPageIndex(pageCount - 1)}
            disabled={!canNext}
            aria-label="Last page"
          >
            <Icon name="chevrons-right" size={16} />
          </ActionIcon>
        </Tooltip>
        <GoToPageForm pageCount={pageCount} isError={isError} onPageIndex={onPageIndex} />
        <Select
          aria-label="Rows per page"
          data={PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} per page` }))}
          value={String(pageSize)}
          onChange={(value) => {
            if (value) onPageSize(Number(value));
          }}
          allowDeselect={false}
          size="xs"
          w={124}
          data-testid="page-size"
        />
      </Group>
    </Group>
  );
}
