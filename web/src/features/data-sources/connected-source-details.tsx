import { Anchor, Group, Text } from '@mantine/core';
import type { DataSourceStatus, SourceImport } from '../../../../catalog/data-source-calls.ts';
import { formatDate, formatNumber } from '../../../../catalog/format.ts';
import { CoverageChart } from './coverage-chart.tsx';
import { ImportList } from './import-list.tsx';
import { SourceStat } from './source-stat.tsx';

const byWhom = (i: SourceImport): string => (i.by === 'cli' ? 'npm run import-data' : (i.by ?? 'unknown'));

const share = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${formatNumber((100 * part) / whole, part === whole || part === 0 ? 0 : 1)}%`;

/** A connected source's figures: rows, last import, matched pages, coverage, unmatched examples and its imports. */
export function ConnectedSourceDetails({
  source,
  isBusy,
  onRemove,
}: {
  source: DataSourceStatus;
  isBusy: boolean;
  onRemove: (record: SourceImport) => void;
}) {
  const last = source.imports[0];
  const match = source.match;
  return (
    <>
      <Group gap="lg" wrap="wrap">
        <SourceStat label="Rows" value={formatNumber(source.rows)} />
        {last ? (
          <SourceStat label="Last import" value={`${formatDate(last.at)} by ${byWhom(last)}`} testId="last-import" />
        ) : null}
        {match ? (
          <SourceStat
            label={`Crawled pages matched (crawl ${match.crawlId})`}
            value={`${formatNumber(match.matchedPages)} of ${formatNumber(match.crawledPages)} (${share(match.matchedPages, match.crawledPages)})`}
            testId="matched-pages"
          />
        ) : null}
      </Group>
      {source.days.length > 0 || source.periods.length > 0 ? <CoverageChart source={source} /> : null}
      {match && match.unmatchedUrls > 0 ? (
        <Text size="xs" c="dark.4" data-testid="unmatched">
          {formatNumber(match.unmatchedUrls)} of its {formatNumber(match.sourceUrls)} URLs match no crawled page, e.g.{' '}
          {match.unmatchedExamples.map((url, i) => (
            <span key={url}>
              {i > 0 ? ', ' : ''}
              <Anchor href={url} target="_blank" rel="noreferrer" size="xs" style={{ wordBreak: 'break-all' }}>
                {url}
              </Anchor>
            </span>
          ))}
          . A www or https mismatch with the crawl shows here.
        </Text>
      ) : null}
      <ImportList imports={source.imports} byWhom={byWhom} isBusy={isBusy} onRemove={onRemove} />
    </>
  );
}
