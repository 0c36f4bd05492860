import { useState } from 'react';
import { Button, Group, Input, Popover, Stack, Text, TextInput } from '@mantine/core';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { formatDate } from '../../../../catalog/format.ts';
import { Icon } from '../../components/icon.tsx';

/** The data date range for search-console and analytics figures; defaults to the crawl's data start and end. */
export function DateRangeControl() {
  const { range, current, url, setUrl } = useDashboard();
  const [isOpen, setOpen] = useState(false);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  if (!range || !current) return null;
  const isCustom = url.from !== undefined;
  const isValid = /^\d{4}-\d{2}-\d{2}$/.test(start) && /^\d{4}-\d{2}-\d{2}$/.test(end) && start <= end;

  return (
    <Input.Wrapper label="Data range" labelElement="div" labelProps={{ id: 'data-range-label' }}>
      <Popover opened={isOpen} onChange={setOpen} position="bottom-start" shadow="md" withArrow trapFocus returnFocus>
        <Popover.Target>
          <Button
            variant="default"
            size="sm"
            fw={400}
            display="block"
            leftSection={<Icon name="calendar" size={16} />}
            onClick={() => {
              setStart(range.start);
              setEnd(range.end);
              setOpen((o) => !o);
            }}
            aria-label={`Data range: ${formatDate(range.start)} to ${formatDate(range.end)}`}
            aria-haspopup="dialog"
            aria-expanded={isOpen}
            data-testid="data-range"
          >
            {formatDate(range.start)} – {formatDate(range.end)}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs" w={250}>
            <Text size="xs" c="dimmed">
              Search Console and analytics figures cover this range.
            </Text>
            <Group gap="xs" grow>
              <TextInput
                type="date"
                label="From"
                size="xs"
                value={start}
                onChange={(e) => setStart(e.currentTarget.value)}
              />
              <TextInput type="date" label="To" size="xs" value={end} onChange={(e) => setEnd(e.currentTarget.value)} />
            </Group>
            <Group gap="xs" justify="space-between">
              <Button
                size="xs"
                variant="subtle"
                disabled={!isCustom}
                onClick={() => {
                  setUrl((s) => ({ ...s, from: undefined, to: undefined, page: undefined }));
                  setOpen(false);
                }}
              >
                Use the crawl’s dates
              </Button>
              <Button
                size="xs"
                disabled={!isValid}
                onClick={() => {
                  setUrl((s) => ({ ...s, from: start, to: end, page: undefined }));
                  setOpen(false);
                }}
              >
                Apply
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Input.Wrapper>
  );
}
