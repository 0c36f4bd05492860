import { Group, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import type { WebsiteSegment } from '../../api/types.ts';
import { useCommandDraft } from './use-command-draft.ts';
import { CommandForm } from './command-form.tsx';
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
  const { draft, setDraft, command, text, toggle, choice } = useCommandDraft<Draft>(() => draftOf(segment), onDone);
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
    <CommandForm
      onSubmit={() => void save()}
      onCancel={onCancel}
      command={command}
      submitLabel={isNew ? 'Add segment' : 'Save segment'}
      aria-label={isNew ? 'New segment' : `Segment ${segment.name}`}
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput label="Segment id" {...text('id')} disabled={!isNew} required />
        <TextInput label="Segment name" {...text('name')} required />
        <TextInput
          label="URL scope"
          placeholder={segment?.isDefault ? 'The whole site' : '/blog/'}
          {...text('urlScope')}
          disabled={segment?.isDefault === true}
        />
        <Select label="Segment goal" data={GOAL_OPTIONS} {...choice('goal', NO_GOAL)} allowDeselect={false} />
      </SimpleGrid>
      <Group gap="lg">
        <Switch label="Hreflang reports" {...toggle('isHreflang')} />
        <Switch label="AI suggestions" {...toggle('isAi')} />
      </Group>
    </CommandForm>
  );
}
