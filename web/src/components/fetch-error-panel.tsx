import { Alert, Button, Group, Text } from '@mantine/core';
import { Icon } from './icon.tsx';

export const FETCH_ERROR_TITLE = 'An error occurred fetching the data';
export const FETCH_ERROR_BODY = 'An unexpected error occurred when fetching the data, please try again later.';

/**
 * Spec §8 data-fetch failure, with a retry: one per area whose request failed (crawls, overview, chart, table…),
 * named by `area` (data-area) so a page never shows two for the same request.
 */
export function FetchErrorPanel({ area, onRetry }: { area: string; onRetry?: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      title={FETCH_ERROR_TITLE}
      icon={<Icon name="alert-triangle" size={18} />}
      role="alert"
      data-testid="fetch-error"
      data-area={area}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{FETCH_ERROR_BODY}</Text>
        {onRetry ? (
          <Button
            size="xs"
            variant="white"
            color="red"
            onClick={onRetry}
            leftSection={<Icon name="refresh" size={14} />}
          >
            Try again
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
