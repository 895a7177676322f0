/**
 * Imports members from a CSV into any project, by the same code as Admin > Import (decision 0065):
 *
 *   npm run import -- members.csv --mapping template              preview, then import
 *   npm run import -- members.csv --mapping gympoint --dry-run    the preview only: writes nothing
 *   npm run import -- members.csv --mapping my-columns.json       {"File column": "email", ...}
 *
 * --mapping is a preset (template, gympoint, fitnessgm, gymflow) or a JSON file mapping each file
 * column to one of our fields (name, first_name, last_name, email, phone, date_of_birth,
 * emergency_contact_name, emergency_contact_phone, plan, plan_price, next_payment_date,
 * package_sessions, package_expiry, guardian_email);
 * --date-order mdy reads month-first dates. The project is SUPABASE_URL with
 * SUPABASE_SERVICE_ROLE_KEY, else the local stack's. No email is sent: the admin presses "Send
 * invitations" in Admin > Import when the members should be told.
 */
import { readFileSync } from 'node:fs';
import { PostgrestClient } from '@supabase/postgrest-js';
import { readCsv } from '../src/features/admin/lib/member-import/csv';
import { IMPORT_FIELDS, type ColumnMapping, type DateOrder } from '../src/features/admin/lib/member-import/fields';
import { countOutcomes, formatOutcomes, type ImportRowOutcome } from '../src/features/admin/lib/member-import/outcome';
import { findPreset, IMPORT_PRESETS, mappingFor } from '../src/features/admin/lib/member-import/presets';
import { toImportRows } from '../src/features/admin/lib/member-import/rows';
import { readLocalEnv } from '../supabase/local/config';

export interface ImportArgs {
  file: string;
  mapping: string;
  dryRun: boolean;
  dateOrder?: DateOrder;
}

const USAGE = 'usage: npm run import -- <file.csv> --mapping <preset|file.json> [--dry-run] [--date-order dmy|mdy]';

export function parseImportArgs(argv: readonly string[]): ImportArgs {
  const rest = [...argv];
  let file: string | undefined;
  let mapping: string | undefined;
  let dryRun = false;
  let dateOrder: DateOrder | undefined;
  while (rest.length > 0) {
    const arg = rest.shift()!;
    if (arg === '--dry-run') dryRun = true;
    else if (arg === '--mapping') mapping = rest.shift();
    else if (arg === '--date-order') {
      const value = rest.shift();
      if (value !== 'dmy' && value !== 'mdy') throw new Error(`--date-order is dmy or mdy (got "${value ?? ''}")\n${USAGE}`);
      dateOrder = value;
    } else if (arg.startsWith('--')) throw new Error(`Unknown option ${arg}\n${USAGE}`);
    else if (file === undefined) file = arg;
    else throw new Error(`One file at a time (got "${file}" and "${arg}")\n${USAGE}`);
  }
  if (!file || !mapping) throw new Error(USAGE);
  return { file, mapping, dryRun, dateOrder };
}

/** The column mapping and date order for a file: a preset's, or a JSON file's (checked). */
export function loadMapping(spec: string, headers: readonly string[], readText = (p: string) => readFileSync(p, 'utf8')) {
  const preset = findPreset(spec);
  if (preset) return { mapping: mappingFor(headers, preset), dateOrder: preset.dateOrder };
  if (!spec.endsWith('.json')) {
    throw new Error(`--mapping is one of ${IMPORT_PRESETS.map((p) => p.id).join(', ')} or a .json file (got "${spec}")`);
  }
  const parsed = JSON.parse(readText(spec)) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${spec}: expected {"File column": "field", ...}`);
  const fields = new Set<string>(IMPORT_FIELDS.map((f) => f.key));
  const mapping: ColumnMapping = {};
  for (const [column, field] of Object.entries(parsed)) {
    if (typeof field !== 'string' || !fields.has(field))
      throw new Error(`${spec}: "${column}" maps to "${String(field)}", which is not one of our fields`);
    if (!headers.includes(column)) throw new Error(`${spec}: the file has no column "${column}"`);
    mapping[column] = field as ColumnMapping[string];
  }
  return { mapping, dateOrder: 'dmy' as DateOrder };
}

async function main(): Promise<void> {
  const args = parseImportArgs(process.argv.slice(2));
  const table = readCsv(readFileSync(args.file, 'utf8'));
  const { mapping, dateOrder } = loadMapping(args.mapping, table.headers);
  const rows = toImportRows(table, mapping, args.dateOrder ?? dateOrder);
  const env = readLocalEnv();
  const url = (env.SUPABASE_URL ?? '').replace(/\/+$/, '');
  const key = env.SUPABASE_SERVICE_ROLE_KEY ?? '';
  if (!url || !key) throw new Error('Set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (the project and its service key).');
  const db = new PostgrestClient(`${url}/rest/v1`, { headers: { apikey: key, Authorization: `Bearer ${key}` } });
  const call = async (commit: boolean) => {
    const { data, error } = await db.rpc('admin_import_members', { p_rows: rows, p_commit: commit });
    if (error) throw new Error(`The import was refused: ${error.message}`);
    return data as ImportRowOutcome[];
  };
  const preview = await call(false);
  console.log(`Preview of ${args.file} against ${url}:\n${formatOutcomes(preview)}`);
  if (args.dryRun) return;
  const counts = countOutcomes(preview);
  if (counts.created + counts.updated === 0) {
    console.log('Nothing to import.');
    return;
  }
  const done = await call(true);
  console.log(`Imported: ${formatOutcomes(done).split('\n').at(-1)}. No email was sent: press "Send invitations" in Admin > Import.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
