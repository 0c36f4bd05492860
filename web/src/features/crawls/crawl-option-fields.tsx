import { NumberInput, Select, SimpleGrid, Switch, TextInput, Textarea } from '@mantine/core';
import type { SettingsDraft } from './settings-draft.ts';
import { BESIDE_INPUT, range, type FieldErrorOf, type SetDraftField, type SettingsFields } from './settings-fields.ts';

const RENDER_MODE_OPTIONS = [
  { value: 'none', label: 'None: read the raw HTML' },
  { value: 'sample', label: 'Sample: time the rendered pages' },
  { value: 'all', label: 'All: crawl the rendered pages' },
];

export interface CrawlOptionFieldsProps {
  draft: SettingsDraft;
  fields: SettingsFields;
  set: SetDraftField;
  errorOf: FieldErrorOf;
}

/** How the crawler fetches and renders: user agent, robots.txt, rendering, external links, limits and sitemaps. */
export function CrawlOptionFields({ draft, fields, set, errorOf }: CrawlOptionFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      <TextInput
        label="User agent"
        description="Leave empty to use the crawler's default user agent."
        placeholder="The crawler's default"
        {...fields.text('userAgent')}
      />
      <Switch
        label="Respect robots.txt"
        description="Skip URLs robots.txt disallows and wait its crawl-delay."
        {...fields.toggle('respectRobots')}
        mt={BESIDE_INPUT}
      />
      <NumberInput
        label="Rendered pages"
        description="Indexable pages rendered in Chromium for the performance columns; 0 renders none."
        {...fields.count('render')}
      />
      <Select
        label="Render mode"
        description="All: every page is rendered in Chromium and the crawl reads the rendered page (JavaScript sites)."
        data={RENDER_MODE_OPTIONS}
        value={draft.renderMode}
        onChange={(value) => {
          if (value) set('renderMode', value as SettingsDraft['renderMode']);
        }}
        allowDeselect={false}
        error={errorOf('renderMode')}
      />
      <NumberInput
        label="Render tabs"
        description={`${range('renderTabs')} pages rendered at once (mode All); more use more CPU and memory`}
        {...fields.count('renderTabs')}
      />
      <NumberInput
        label="Network quiet (ms)"
        description={`${range('renderQuietMs')}; a page is rendered once no request has been in flight this long`}
        {...fields.count('renderQuietMs')}
      />
      <Switch
        label="Download images, media and fonts"
        description="Rendered pages load them too (slower; off leaves them out, as the DOM does not need them)."
        {...fields.toggle('renderAssets')}
      />
      <Switch
        label="Check external links"
        description="Ask other websites for the status of the pages linked to; off leaves it unknown."
        {...fields.toggle('checkExternal')}
      />
      <NumberInput
        label="Time limit (hours)"
        description={`${range('timeLimitHours')}; then the crawl stops and loads what it has`}
        {...fields.count('timeLimitHours')}
      />
      <NumberInput
        label="Data window (days)"
        description={`${range('dataWindowDays')}; each crawl joins the imported data of these days before its crawl date`}
        {...fields.count('dataWindowDays')}
      />
      <Textarea
        label="Sitemap URLs"
        description="One per line, besides robots.txt's sitemaps and /sitemap.xml."
        {...fields.lines('sitemaps')}
      />
    </SimpleGrid>
  );
}
