import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRetentionTable, RETENTION_ROWS } from './data-retention';

// Admin > Settings shows the data contract's retention table (decision 0097): the two must say the
// same, so a change to either fails here until the other follows.
describe('the retention table', () => {
  it('is the one in docs/data-contract.md, row by row and word for word', () => {
    const doc = readFileSync(resolve(process.cwd(), 'docs/data-contract.md'), 'utf8');
    const rows = parseRetentionTable(doc);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows).toEqual(RETENTION_ROWS.map(({ setting: _setting, ...row }) => row));
  });

  it('reads a table cell by cell and ignores the header, the rule and other sections', () => {
    const md = [
      '## Other',
      '| Data | x |',
      '## Personal data: retention',
      '| Data | Purpose | Lawful basis | Kept |',
      '| --- | --- | --- | --- |',
      '| A | B | C | D |',
      '',
      '## Next',
      '| E | F | G | H |',
    ].join('\n');
    expect(parseRetentionTable(md)).toEqual([{ data: 'A', purpose: 'B', basis: 'C', kept: 'D' }]);
  });
});
