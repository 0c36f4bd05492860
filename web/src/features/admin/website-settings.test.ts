import { describe, expect, it } from 'vitest';
import { websiteLabels } from './website-settings.ts';

describe('websiteLabels', () => {
  it('is the name alone, and the name with the id when two websites share it', () => {
    const labels = websiteLabels([
      { id: 'northwind', name: 'Northwind' },
      { id: 'northwind-big', name: 'Northwind' },
      { id: 'alpine', name: 'Alpine Travel' },
    ]);
    expect([...labels]).toEqual([
      ['northwind', 'Northwind (northwind)'],
      ['northwind-big', 'Northwind (northwind-big)'],
      ['alpine', 'Alpine Travel'],
    ]);
  });
});
