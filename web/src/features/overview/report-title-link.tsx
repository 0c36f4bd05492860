import { Anchor } from '@mantine/core';
import { Link } from 'wouter';
import { reportPath } from '../../lib/routes.ts';

/** A report's title linking to its page, keeping the current selection (`search`). */
export function ReportTitleLink({ report, search }: { report: { id: string; title: string }; search: string }) {
  return (
    <Anchor
      component={Link}
      href={`${reportPath(report.id)}${search}`}
      size="sm"
      fw={600}
      c="dark.7"
      underline="hover"
      title={report.title}
    >
      {report.title}
    </Anchor>
  );
}
