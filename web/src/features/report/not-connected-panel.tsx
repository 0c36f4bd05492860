import { Alert, Text } from '@mantine/core';
import { dataSource, type DataSourceId } from '../../../../catalog/data-sources.ts';
import { Icon } from '../../components/icon.tsx';

/** A report whose data source the website lacks: not connected, which is not the same as no issues. */
export function NotConnectedPanel({ source, isStaff }: { source: DataSourceId; isStaff: boolean }) {
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
      <Text size="sm">
        {isStaff
          ? `This website has no ${title} data for this crawl's dates. Import the platform's export with npm run import-data (docs/data-sources.md), and this report fills in.`
          : 'This report is not available for this website.'}
      </Text>
    </Alert>
  );
}
