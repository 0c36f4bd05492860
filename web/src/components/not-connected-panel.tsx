import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'wouter';
import { dataSource, type DataSourceId } from '../../../catalog/data-sources.ts';
import { Icon } from './icon.tsx';
import { useDashboard } from '../lib/dashboard-context.ts';
import { DATA_SOURCES_PATH } from '../lib/routes.ts';
import { formatUrlState } from '../lib/url-state.ts';

/**
 * A report (or a part of one, such as a source of the query report) whose data source the website lacks: not
 * connected, which is not the same as no issues or no data. Staff get the way to connect it; clients only that it is
 * not available.
 */
export function NotConnectedPanel({
  source,
  isStaff,
  subject = 'report',
}: {
  source: DataSourceId;
  isStaff: boolean;
  /** What the panel stands in for: "this report", "this section". */
  subject?: 'report' | 'section';
}) {
  const { website } = useDashboard();
  const { title } = dataSource(source);
  return (
    <Alert
      color="gray"
      variant="light"
      title={`${title} is not connected`}
      icon={<Icon name="info-circle" size={18} />}
      data-testid="not-connected"
      data-source={source}
    >
      {isStaff ? (
        <Text size="sm">
          This website has no {title} data for this crawl&apos;s dates. Import the platform&apos;s export on the{' '}
          <Anchor
            component={Link}
            href={`${DATA_SOURCES_PATH}${formatUrlState({ website: website.id })}`}
            size="sm"
            underline="always"
            data-testid="data-sources-link"
          >
            Data sources
          </Anchor>{' '}
          page (or with npm run import-data), and this {subject} fills in.
        </Text>
      ) : (
        <Text size="sm">This {subject} is not available for this website.</Text>
      )}
    </Alert>
  );
}
