import { useState } from 'react';
import { Button, Loader, Stack, Text } from '@mantine/core';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { request } from '../../api/client.ts';
import type { ReportRow } from '../../api/report-rows.ts';
import { toNumber } from '../../../../catalog/format.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';

export const AI_NOTE = 'Note: This content is AI generated and requires human verification';
export const AI_ERROR = 'An error occurred';

type AiState = { status: 'idle' } | { status: 'pending' } | { status: 'success'; text: string } | { status: 'error' };

/** Spec §4: 'Suggest' → spinner → the text and its note, or 'An error occurred'. Only rows with status 200. */
export function AiSuggestionCell({ column, row }: { column: CatalogColumn; row: ReportRow }) {
  const { website } = useDashboard();
  const [state, setState] = useState<AiState>({ status: 'idle' });
  const rowUrl = row.get('url');
  const url = typeof rowUrl === 'string' ? rowUrl : null;
  if (toNumber(row.get('http_status_code')) !== 200 || !url) {
    return (
      <Text span size="sm" c="dark.3">
        –
      </Text>
    );
  }
  const type = column.id === 'ai_title' ? 'page-title' : 'meta-description';
  const suggest = async () => {
    setState({ status: 'pending' });
    try {
      const response = await request('POST', '/api/ai/get-data', { url, type, websiteId: website.id });
      setState({ status: 'success', text: await response.text() });
    } catch {
      setState({ status: 'error' });
    }
  };
  switch (state.status) {
    case 'idle':
      return (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => void suggest()}
          aria-label={`Suggest a ${type.replace('-', ' ')} for ${url}`}
        >
          Suggest
        </Button>
      );
    case 'pending':
      return <Loader size="xs" aria-label="Suggesting" />;
    case 'error':
      return (
        <Text span size="sm" c="red.9">
          {AI_ERROR}
        </Text>
      );
    case 'success':
      return (
        <Stack gap={2}>
          <Text size="sm">{state.text}</Text>
          <Text size="xs" c="dimmed">
            {AI_NOTE}
          </Text>
        </Stack>
      );
  }
}
