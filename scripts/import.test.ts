import { describe, expect, it } from 'vitest';
import { formatOutcomes } from '../src/features/admin/lib/member-import/outcome';
import { loadMapping, parseImportArgs } from './import';

describe('npm run import', () => {
  it('reads its arguments and says how to call it otherwise', () => {
    expect(parseImportArgs(['a.csv', '--mapping', 'template', '--dry-run'])).toEqual({
      file: 'a.csv',
      mapping: 'template',
      dryRun: true,
      dateOrder: undefined,
    });
    expect(parseImportArgs(['--mapping', 'm.json', 'a.csv', '--date-order', 'mdy'])).toMatchObject({ dateOrder: 'mdy', dryRun: false });
    expect(() => parseImportArgs(['a.csv'])).toThrow(/usage: npm run import/);
    expect(() => parseImportArgs(['a.csv', 'b.csv', '--mapping', 'template'])).toThrow(/One file at a time/);
    expect(() => parseImportArgs(['a.csv', '--mapping', 'x', '--date-order', 'ymd'])).toThrow(/dmy or mdy/);
  });

  it('takes a preset or a JSON mapping, and refuses a field or a column that does not exist', () => {
    expect(loadMapping('gympoint', ['first_name', 'email'])).toEqual({
      mapping: { first_name: 'first_name', email: 'email' },
      dateOrder: 'mdy',
    });
    const file = (text: string) => () => text;
    expect(loadMapping('m.json', ['E-mail', 'Who'], file('{"E-mail": "email", "Who": "name"}'))).toEqual({
      mapping: { 'E-mail': 'email', Who: 'name' },
      dateOrder: 'dmy',
    });
    expect(() => loadMapping('m.json', ['E-mail'], file('{"E-mail": "mail"}'))).toThrow(/not one of our fields/);
    expect(() => loadMapping('m.json', ['E-mail'], file('{"Email": "email"}'))).toThrow(/no column "Email"/);
    expect(() => loadMapping('mindbody', ['x'])).toThrow(/template, gympoint, fitnessgm, gymflow or a .json file/);
  });

  it('prints the preview a row a line, then the totals', () => {
    expect(
      formatOutcomes([
        {
          line: 2,
          kind: 'member',
          name: 'Jo\nSmith',
          email: 'jo@example.com',
          outcome: 'created',
          actions: ['New member jo@example.com.'],
          refusals: [],
        },
        {
          line: 3,
          kind: 'child',
          name: 'Mia',
          email: 'x@example.com',
          outcome: 'refused',
          actions: [],
          refusals: ['Guardian x is missing.'],
        },
      ]),
    ).toBe(
      'row 2 Jo Smith <jo@example.com>: created: New member jo@example.com.\n' +
        'row 3 child Mia <x@example.com>: refused: Guardian x is missing.\n' +
        '1 new, 0 updated, 0 unchanged, 1 refused',
    );
  });
});
