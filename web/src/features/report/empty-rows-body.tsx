import { Loader, Text } from '@mantine/core';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import classes from './report-table.module.css';

export const NO_RESULTS = 'No results found';

export interface EmptyRowsBodyProps {
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
}

/** The table's body while it has no rows: loading, the rows' error with Retry, or no results. */
export function EmptyRowsBody({ isPending, isError, onRetry }: EmptyRowsBodyProps) {
  return (
    <tbody role="rowgroup">
      <tr role="row" className={classes.tr}>
        <td role="cell" className={classes.message}>
          {isPending ? (
            <Loader size="sm" aria-label="Loading rows" />
          ) : isError ? (
            <FetchErrorPanel area="rows" onRetry={onRetry} />
          ) : (
            <Text size="sm" c="dark.4" data-testid="no-results">
              {NO_RESULTS}
            </Text>
          )}
        </td>
      </tr>
    </tbody>
  );
}
