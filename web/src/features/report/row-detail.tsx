import { Group, Stack, Text } from '@mantine/core';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportRow } from '../../api/report-rows.ts';
import { hopKind, redirectHops, statusColour } from '../../../../catalog/cell-format.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { UrlText } from '../../components/url-text.tsx';
import { SUB_ROW_TITLES, subRowUrls } from './sub-row.ts';

/**
 * The expandable sub-row: each hop of a redirect chain in order, the other members of a duplicate set, or the
 * pages a link is found on.
 */
export function RowDetail({ report, row }: { report: ReportDefinition; row: ReportRow }) {
  if (!report.subRow) return null;
  const title = SUB_ROW_TITLES[report.subRow];
  const heading = (
    <Text size="xs" fw={700} c="dark.4" tt="uppercase">
      {title}
    </Text>
  );
  if (report.subRow !== 'redirect-chain') {
    return (
      <Stack gap={6} role="group" aria-label={title}>
        {heading}
        {subRowUrls(row).map((url, index) => (
          <Group key={url} gap={8} wrap="nowrap">
            <Text size="xs" c="dark.3" w={18} ta="right">
              {index + 1}.
            </Text>
            <UrlText url={url} />
          </Group>
        ))}
      </Stack>
    );
  }
  const hops = redirectHops(row.get('redirect_chain'));
  return (
    <Stack gap={6} role="group" aria-label={title}>
      {heading}
      {hops.map((hop, index) => (
        <Group key={index} gap={8} wrap="nowrap">
          <Text size="xs" c="dark.3" w={18} ta="right">
            {index + 1}.
          </Text>
          <ToneBadge
            size="sm"
            tone={hop.is_js_redirect || hop.is_meta_redirect ? 'yellow' : statusColour(hop.status_code)}
            miw={64}
          >
            {hopKind(hop)}
          </ToneBadge>
          {hop.url ? <UrlText url={hop.url} isLink={false} /> : <Text size="sm">–</Text>}
          {hop.redirects_to ? (
            <>
              <Icon name="arrow-right" size={14} color="var(--mantine-color-gray-6)" />
              <UrlText url={hop.redirects_to} />
            </>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}
