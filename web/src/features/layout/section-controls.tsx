import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Select, Switch, Text, TextInput, type SelectProps } from '@mantine/core';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { withCrawl } from '../../lib/url-state.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { DateRangeControl } from './date-range-control.tsx';

/** Room for the longest label, "25 Nov 2026, 14:05 (crawl 123, partial)", beside the calendar icon. */
const CRAWL_SELECT_WIDTH = 300;

/**
 * The Current Crawl dropdown (newest first, labelled by crawl label: date, time when a day holds several, number), the
 * comparison, the data range and, on report pages, the 'URLs containing' filter and the 'Show Checked Items' toggle.
 */
export function SectionControls() {
  const { page, crawls, current, comparison, website, segment, url, setUrl, isInternal } = useDashboard();
  const isReport = page.kind === 'report';
  const older = current ? crawls.filter((c) => c.crawlId < current.crawlId) : [];
  const byValue = new Map(crawls.map((c) => [String(c.crawlId), c]));
  const renderCrawl: SelectProps['renderOption'] = ({ option }) => {
    const crawl = byValue.get(option.value);
    return (
      <Group gap={6} wrap="nowrap" justify="space-between" w="100%">
        <span>{option.label}</span>
        {isInternal && crawl?.moduleState !== 'APPROVED' ? (
          <ToneBadge tone="yellow" size="xs">
            Pending
          </ToneBadge>
        ) : null}
      </Group>
    );
  };

  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label="Crawl and filters">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Current Crawl"
          data={crawls.map((c) => ({ value: String(c.crawlId), label: c.label }))}
          value={current ? String(current.crawlId) : null}
          onChange={(value) => {
            if (value && Number(value) !== current?.crawlId) setUrl((s) => withCrawl(s, Number(value)));
          }}
          allowDeselect={false}
          w={CRAWL_SELECT_WIDTH}
          maw="100%"
          size="sm"
          leftSection={<Icon name="calendar" size={16} />}
          renderOption={renderCrawl}
          data-testid="current-crawl"
          data-partial={current?.partial ?? undefined}
        />
        <Select
          label="Compared with"
          data={older.map((c) => ({ value: String(c.crawlId), label: c.label }))}
          value={comparison ? String(comparison.crawlId) : null}
          placeholder={older.length === 0 ? 'No earlier crawl' : 'Choose a crawl'}
          disabled={older.length === 0}
          onChange={(value) => {
            if (value) setUrl((s) => ({ ...s, compare: Number(value), page: undefined }));
          }}
          allowDeselect={false}
          w={CRAWL_SELECT_WIDTH}
          maw="100%"
          size="sm"
          renderOption={renderCrawl}
          data-testid="comparison-crawl"
          data-partial={comparison?.partial ?? undefined}
        />
        <DateRangeControl />
        {website.segments.length > 1 ? (
          <Select
            label="Segment"
            data={website.segments.map((s) => ({ value: s.id, label: s.name }))}
            value={segment?.id ?? null}
            onChange={(value) => {
              if (value) setUrl((s) => ({ ...s, segment: value, page: undefined }));
            }}
            allowDeselect={false}
            w={180}
            size="sm"
            data-testid="segment"
          />
        ) : null}
      </Group>
      {isReport ? (
        <Group
          gap="md"
          align="flex-end"
          wrap="wrap"
          mt="sm"
          pt="sm"
          style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
        >
          <ReportFilters key={url.filter ?? ''} />
        </Group>
      ) : (
        <Text size="xs" c="dark.3" mt={6}>
          Changing the crawl compares it with the crawl before it and uses its own data range.
        </Text>
      )}
    </Paper>
  );
}

function ReportFilters() {
  const { url, setUrl } = useDashboard();
  const [text, setText] = useState(url.filter ?? '');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const filter = text.trim();
    setUrl((s) => ({ ...s, filter: filter || undefined, page: undefined }));
  };
  return (
    <>
      <form onSubmit={submit} role="search" aria-label="Filter the report" style={{ display: 'contents' }}>
        <Group gap={6} align="flex-end" wrap="nowrap">
          <TextInput
            label="URLs containing"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            placeholder="e.g. /blog/"
            w={220}
            size="sm"
            leftSection={<Icon name="search" size={15} />}
            data-testid="url-filter"
          />
          <Button type="submit" size="sm" variant="filled">
            Filter
          </Button>
        </Group>
      </form>
      <Switch
        label="Show Checked Items"
        checked={url.checked === true}
        onChange={(e) => {
          const checked = e.currentTarget.checked;
          setUrl((s) => ({ ...s, checked: checked || undefined, page: undefined }));
        }}
        size="sm"
        mb={8}
        data-testid="show-checked"
      />
    </>
  );
}
