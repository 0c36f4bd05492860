import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportRow } from '../../api/report-rows.ts';
import { hopKind, redirectHops, statusColour } from '../../lib/cell-format.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';

/** The expandable sub-row: each hop of a redirect chain in order. */
export function RowDetail({ report, row }: { report: ReportDefinition; row: ReportRow }) {
  if (report.subRow !== 'redirect-chain') return null;
  const hops = redirectHops(row.redirect_chain);
  return (
    <Stack gap={6} aria-label="Redirect hops">
      <Text size="xs" fw={700} c="dark.4" tt="uppercase">
        Redirect hops
      </Text>
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
          <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
            {hop.url ?? '–'}
          </Text>
          {hop.redirects_to ? (
            <>
              <Icon name="arrow-right" size={14} color="var(--mantine-color-gray-6)" />
              <Anchor
                href={hop.redirects_to}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                truncate="end"
                style={{ minWidth: 0 }}
              >
                {hop.redirects_to}
              </Anchor>
            </>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}
