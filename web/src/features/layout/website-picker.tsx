import { Group, Select, Text } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { Icon } from '../../components/icon.tsx';

export interface WebsitePickerProps {
  websites: Website[];
  website: Website | undefined;
  onChange: (websiteId: string) => void;
}

/** A searchable picker for users with several websites; a plain label otherwise. */
export function WebsitePicker({ websites, website, onChange }: WebsitePickerProps) {
  if (websites.length <= 1) {
    return website ? (
      <Group gap={6} wrap="nowrap" miw={0} data-testid="website-name">
        <Icon name="world" size={16} color="var(--mantine-color-gray-6)" />
        <Text size="sm" fw={600} truncate>
          {website.name}
        </Text>
        <Text size="xs" c="dimmed" visibleFrom="sm" truncate>
          {website.domain}
        </Text>
      </Group>
    ) : null;
  }
  const byId = new Map(websites.map((w) => [w.id, w]));
  return (
    <Select
      aria-label="Website"
      placeholder="Choose a website"
      data={websites.map((w) => ({ value: w.id, label: w.name }))}
      value={website?.id ?? null}
      onChange={(value) => {
        if (value && value !== website?.id) onChange(value);
      }}
      allowDeselect={false}
      searchable={websites.length > 6}
      nothingFoundMessage="No website matches"
      leftSection={<Icon name="world" size={16} />}
      w={{ base: 180, xs: 240, sm: 280 }}
      size="sm"
      comboboxProps={{ width: 320, position: 'bottom-end' }}
      renderOption={({ option }) => (
        <div>
          <Text size="sm" fw={500}>
            {option.label}
          </Text>
          <Text size="xs" c="dimmed">
            {byId.get(option.value)?.domain}
          </Text>
        </div>
      )}
      data-testid="website-picker"
    />
  );
}
