import { describe, expect, it } from 'vitest';
import { filterMatchesText } from './api.ts';

describe('filterMatchesText', () => {
  it('names where the text was found, the linking page first', () => {
    expect(filterMatchesText('/blog/', { linking: 1830, target: 3 })).toBe(
      "'/blog/' is in the linking page of 1,830 rows and the target of 3 rows",
    );
    expect(filterMatchesText('/blog/', { linking: 0, target: 1 })).toBe("'/blog/' is in the target of 1 row");
    expect(filterMatchesText('/blog/', { linking: 2, target: 0 })).toBe("'/blog/' is in the linking page of 2 rows");
  });

  it('says nothing when nothing matched (the table says so)', () => {
    expect(filterMatchesText('/blog/', { linking: 0, target: 0 })).toBeUndefined();
  });
});
