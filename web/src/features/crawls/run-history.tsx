import { Anchor, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { PARTIAL_REASON_TEXT } from '../../../../catalog/crawl-label.ts';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { SECTION_PATH } from '../../lib/routes.ts';
import { formatUrlState } from '../../lib/url-state.ts';
import { PHASE_LABELS, TRIGGER_LABELS, formatCount, formatRunTime, outcomeText } from './crawl-run-format.ts';
import { ParseFailures } from './parse-failures.tsx';

/**
 * Every ended run of the website, newest first; its start and outcome lead, so narrow screens show them unscrolled. A
 * failure's reason wraps in full; a loaded crawl that holds only part of the website is marked Partial.
 */
export function RunHistory({ websiteId, runs }: { websiteId: string; runs: CrawlRun[] }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="crawl-history">
      <Stack gap="sm">
        <Title order={2} fz="h4" id="crawl-history">
          History
        </Title>
        {runs.length === 0 ? (
          <Text size="sm" c="dark.5" data-testid="history-empty">
            No crawl of this website has run from the dashboard yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720} type="native">
            <Table striped highlightOnHover verticalSpacing="xs" data-testid="crawl-history" fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Start (London)</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th ta="right">Pages</Table.Th>
                  <Table.Th>Last phase</Table.Th>
                  <Table.Th>Trigger</Table.Th>
                  <Table.Th>Started by</Table.Th>
                  <Table.Th>End (London)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {runs.map((run) => (
                  <Table.Tr key={run.id} data-run={run.id} data-status={run.status}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatRunTime(run.startedAt ?? run.queuedAt)}</Table.Td>
                    <Table.Td>
                      <Outcome websiteId={websiteId} run={run} />
                      <ParseFailures run={run} />
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatCount(run.progress.pagesDone)}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="phase">
                      {run.progress.phase ? PHASE_LABELS[run.progress.phase] : '—'}
                    </Table.Td>
                    <Table.Td>{TRIGGER_LABELS[run.trigger]}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{run.startedBy ?? 'Schedule'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatRunTime(run.endedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

function Outcome({ websiteId, run }: { websiteId: string; run: CrawlRun }) {
  const text = outcomeText(run);
  if (run.status === 'loaded' && run.crawlId !== null) {
    return (
      <Group gap={6} wrap="nowrap">
        <Anchor
          component={Link}
          href={`${SECTION_PATH}${formatUrlState({ website: websiteId, crawl: run.crawlId })}`}
          title={run.reason ?? undefined}
        >
          {text}
        </Anchor>
        {run.partial ? (
          <ToneBadge
            tone="orange"
            size="xs"
            title={`Partial: ${PARTIAL_REASON_TEXT[run.partial]}`}
            data-testid="partial"
          >
            Partial
          </ToneBadge>
        ) : null}
      </Group>
    );
  }
  return (
    <Text
      size="sm"
      title={run.status === 'failed' ? undefined : (run.reason ?? undefined)}
      maw={420}
      c={run.status === 'failed' ? 'red.9' : 'dark.6'}
      style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}
      data-testid="outcome"
    >
      {text}
    </Text>
  );
}
