import { useState } from 'react';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import type { WebsiteSegment } from '../../api/types.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { GOAL_OPTIONS, NO_GOAL } from './website-settings.ts';

interface Draft {
  id: string;
  name: string;
  urlScope: string;
  goal: string;
  isHreflang: boolean;
  isAi: boolean;
}

const draftOf = (segment: WebsiteSegment | undefined): Draft => ({
  id: segment?.id ?? '',
  name: segment?.name ?? '',
  urlScope: segment?.urlScope ?? '',
  goal: segment?.goalType ?? NO_GOAL,
  isHreflang: segment?.isHreflang ?? false,
  isAi: segment?.isAi ?? false,
});

/** Adds a segment to a website, or changes one (`segment add` / `segment set`, with the CLI's checks). */
export function SegmentForm({
  websiteId,
  segment,
  onDone,
  onCancel,
}: {
  websiteId: string;
  /** The segment to change; a new one when absent. */
  segment: WebsiteSegment | undefined;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(segment));
  const command = useAdminCommand(onDone);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const isNew = !segment;

  const save = async () => {
    const scope = draft.urlScope.trim();
    const ok = await command.run(
      isNew
        ? {
            command: 'segment add',
            website: websiteId,
            id: draft.id,
            name: draft.name,
            urlScope: scope || null,
            isHreflang: draft.isHreflang,
            isAi: draft.isAi,
            goal: draft.goal === NO_GOAL ? null : draft.goal,
          }
        : {
            command: 'segment set',
            website: websiteId,
            id: draft.id,
            name: draft.name,
            ...(!segment.isDefault && { urlScope: scope || 'none' }),
            isHreflang: draft.isHreflang,
            isAi: draft.isAi,
            goal: draft.goal,
          },
    );
    if (ok && isNew) setDraft(draftOf(undefined));
    if (ok) onCancel();
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      aria-label={isNew ? 'New segment' : `Segment ${segment.name}`}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Segment id"
            value={draft.id}
            onChange={(e) => set('id', e.currentTarget.value)}
            error={command.fieldError('id')}
            disabled={!isNew}
            required
          />
          <TextInput
            label="Segment name"
            value={draft.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={command.fieldError('name')}
            required
          />
          <TextInput
            label="URL scope"
            placeholder={segment?.isDefault ? 'The whole site' : '/blog/'}
            value={draft.urlScope}
            onChange={(e) => set('urlScope', e.currentTarget.value)}
            error={command.fieldError('urlScope')}
            disabled={segment?.isDefault === true}
          />
          <Select
            label="Segment goal"
            data={GOAL_OPTIONS}
            value={draft.goal}
            onChange={(value) => set('goal', value ?? NO_GOAL)}
            error={command.fieldError('goal')}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Group gap="lg">
          <Switch
            label="Hreflang reports"
            checked={draft.isHreflang}
            onChange={(e) => set('isHreflang', e.currentTarget.checked)}
          />
          <Switch label="AI suggestions" checked={draft.isAi} onChange={(e) => set('isAi', e.currentTarget.checked)} />
        </Group>
        {command.formError ? (
          <Alert color="red" role="alert">
            {command.formError}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={command.isRunning}>
            {isNew ? 'Add segment' : 'Save segment'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
