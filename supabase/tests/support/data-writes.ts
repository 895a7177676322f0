/**
 * The DELETE and UPDATE statements in a function body, and whether each has a WHERE. Hosted
 * Supabase loads pg-safeupdate in API sessions, which refuses either without one; PGlite cannot
 * load it, so the schema test reads the bodies instead. Comments and string literals are blanked
 * first; `for update` (a lock) and `on conflict … do update` (part of an INSERT) are not writes here.
 */
export interface DataWrite {
  statement: string;
  guarded: boolean;
}

const WRITE = /\b(delete\s+from\s+[\w."]+|(?<!\b(?:for|do|key)\s)update\s+(?:only\s+)?[\w."]+(?:\s+(?:as\s+)?(?!set\b)\w+)?\s+set\b)/i;

export function dataWrites(source: string): DataWrite[] {
  const code = source
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''");
  return code.split(';').flatMap((raw) => {
    const statement = raw.replace(/\s+/g, ' ').trim();
    const match = WRITE.exec(statement);
    if (!match) return [];
    return [{ statement, guarded: /\bwhere\b/i.test(statement.slice(match.index)) }];
  });
}
