/**
 * Generates src/lib/database.types.ts from the migrations: applies them to an in-memory PGlite
 * (from the cached migrated snapshot) and introspects the `public` schema, writing the same
 * `Database` shape as `supabase gen types typescript` (Tables Row/Insert/Update/Relationships,
 * Views, Functions Args/Returns, Enums, CompositeTypes, plus the Tables/TablesInsert/... helpers).
 *
 *   npm run db:types          write the file
 *   npm run db:types:check    exit 1 when the committed file is not current (CI)
 *
 * Enums become `Enums` (and `Constants`), columns and fields of an enum type reference them;
 * declared row types become `CompositeTypes` (every field nullable, as the CLI types them), and an
 * RPC returning one, an array of one or `returns table (…)` is typed with it.
 *
 * One deliberate difference from the CLI: an RPC argument whose default is NULL is typed
 * `T | null`, since passing null is exactly what that default allows.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { SqlExecutor } from '../supabase/local/db/open-database.ts';
import { repoRoot } from '../supabase/local/db/paths.ts';
import { createTestDatabase } from '../supabase/local/db/snapshot.ts';

const outputPath = `${repoRoot}src/lib/database.types.ts`;
const schema = 'public';
/** The PostgREST major the stack and hosted Supabase run; supabase-js reads it for typing. */
const postgrestVersion = '12';

const numberTypes = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const stringTypes = new Set([
  'text',
  'varchar',
  'bpchar',
  'char',
  'name',
  'citext',
  'uuid',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'bytea',
  'inet',
  'cidr',
  'macaddr',
  'money',
  'tsvector',
  'xml',
  'bit',
  'varbit',
]);

const q = (s: string) => JSON.stringify(s);

/**
 * The SQL that names a type for tsScalar: `e:<name>` for an enum and `c:<name>` for a declared row
 * type (create type … as) of the schema, else the type's own name.
 */
const typeKey = (t: string) =>
  `case when ${t}.typnamespace = $1::regnamespace and (${t}.typtype = 'e'
          or (${t}.typtype = 'c' and exists (select 1 from pg_class tc where tc.oid = ${t}.typrelid and tc.relkind = 'c')))
        then ${t}.typtype::text || ':' || ${t}.typname::text else ${t}.typname::text end`;

function tsScalar(typname: string): string {
  if (typname.startsWith('e:')) return `Database[${q(schema)}]["Enums"][${q(typname.slice(2))}]`;
  if (typname.startsWith('c:')) return `Database[${q(schema)}]["CompositeTypes"][${q(typname.slice(2))}]`;
  if (typname === 'bool') return 'boolean';
  if (numberTypes.has(typname)) return 'number';
  if (typname === 'json' || typname === 'jsonb') return 'Json';
  if (stringTypes.has(typname)) return 'string';
  if (typname === 'void') return 'undefined';
  if (typname === 'record') return 'Record<string, unknown>';
  return 'unknown';
}

interface ColumnInfo {
  table: string;
  column: string;
  typname: string;
  elemtype: string | null;
  notnull: boolean;
  hasdefault: boolean;
  identity: string;
  generated: string;
}

const tsType = (typname: string, elemtype: string | null) => (elemtype ? `${tsScalar(elemtype)}[]` : tsScalar(typname));

async function introspect(db: SqlExecutor) {
  const columns = (
    await db.query<ColumnInfo>(
      `select c.relname as table, a.attname as column, ${typeKey('t')} as typname, ${typeKey('et')} as elemtype,
              a.attnotnull as notnull, a.atthasdef as hasdefault, a.attidentity as identity, a.attgenerated as generated
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_type t on t.oid = a.atttypid
         left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
        where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'c')
          and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attname`,
      [schema],
    )
  ).rows;
  const relations = (
    await db.query<{ name: string; kind: string }>(
      `select relname as name, relkind as kind from pg_class
        where relnamespace = $1::regnamespace and relkind in ('r', 'p', 'v', 'm', 'c') order by relname`,
      [schema],
    )
  ).rows;
  const foreignKeys = (
    await db.query<{
      table: string;
      name: string;
      columns: string[];
      referenced: string;
      referenced_columns: string[];
      one_to_one: boolean;
    }>(
      `select c.relname as table, k.conname as name,
              array(select a.attname from unnest(k.conkey) with ordinality u(n, i)
                      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.i)::text[] as columns,
              rc.relname as referenced,
              array(select a.attname from unnest(k.confkey) with ordinality u(n, i)
                      join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.i)::text[] as referenced_columns,
              exists (select 1 from pg_index i where i.indrelid = k.conrelid and i.indisunique
                         and (select array_agg(x order by x) from unnest(i.indkey::int2[]) x)
                           = (select array_agg(x order by x) from unnest(k.conkey) x)) as one_to_one
         from pg_constraint k
         join pg_class c on c.oid = k.conrelid
         join pg_class rc on rc.oid = k.confrelid
        where k.contype = 'f' and c.relnamespace = $1::regnamespace and rc.relnamespace = $1::regnamespace
        order by c.relname, k.conname`,
      [schema],
    )
  ).rows;
  const functions = (
    await db.query<{
      name: string;
      arg_names: string[] | null;
      arg_types: string[];
      arg_elemtypes: (string | null)[];
      arg_modes: string[] | null;
      n_defaults: number;
      defaults: string | null;
      ret_type: string;
      ret_elemtype: string | null;
      ret_table: string | null;
      retset: boolean;
    }>(
      `select p.proname as name, p.proargnames as arg_names,
              array(select ${typeKey('t')} from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(o, i)
                      join pg_type t on t.oid = u.o order by u.i)::text[] as arg_types,
              array(select ${typeKey('et')} from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(o, i)
                      join pg_type t on t.oid = u.o
                      left join pg_type et on et.oid = t.typelem and t.typcategory = 'A' order by u.i)::text[] as arg_elemtypes,
              p.proargmodes::text[] as arg_modes, p.pronargdefaults as n_defaults,
              pg_get_expr(p.proargdefaults, 0) as defaults,
              ${typeKey('rt')} as ret_type, ${typeKey('ret')} as ret_elemtype,
              case when rt.typtype = 'c' and rc.relnamespace = $1::regnamespace then rc.relname end as ret_table,
              p.proretset as retset
         from pg_proc p
         join pg_type rt on rt.oid = p.prorettype
         left join pg_type ret on ret.oid = rt.typelem and rt.typcategory = 'A'
         left join pg_class rc on rc.oid = rt.typrelid
        where p.pronamespace = $1::regnamespace and p.prokind = 'f'
          and rt.typname not in ('trigger', 'event_trigger')
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
        order by p.proname`,
      [schema],
    )
  ).rows;
  const enums = (
    await db.query<{ name: string; labels: string[] }>(
      `select t.typname as name, array_agg(e.enumlabel::text order by e.enumsortorder)::text[] as labels
         from pg_type t join pg_enum e on e.enumtypid = t.oid
        where t.typnamespace = $1::regnamespace
        group by t.typname order by t.typname`,
      [schema],
    )
  ).rows;
  return { columns, relations, foreignKeys, functions, enums };
}

const indent = (text: string, by: number) =>
  text
    .split('\n')
    .map((l) => (l ? ' '.repeat(by) + l : l))
    .join('\n');

function objectType(fields: string[]): string {
  return fields.length ? `{\n${fields.map((f) => `  ${f}`).join('\n')}\n}` : '{\n  [_ in never]: never\n}';
}

function render(info: Awaited<ReturnType<typeof introspect>>): string {
  const byTable = new Map<string, ColumnInfo[]>();
  for (const c of info.columns) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);

  const rowFields = (cols: ColumnInfo[]) => cols.map((c) => `${c.column}: ${tsType(c.typname, c.elemtype)}${c.notnull ? '' : ' | null'}`);

  const relationBlock = (name: string, withWrites: boolean) => {
    const cols = byTable.get(name) ?? [];
    const fks = info.foreignKeys.filter((f) => f.table === name);
    const parts = [`Row: ${objectType(rowFields(cols))}`];
    if (withWrites) {
      const insert = cols.map((c) => {
        if (c.generated || c.identity === 'a') return `${c.column}?: never`;
        const optional = !c.notnull || c.hasdefault || c.identity !== '';
        return `${c.column}${optional ? '?' : ''}: ${tsType(c.typname, c.elemtype)}${c.notnull ? '' : ' | null'}`;
      });
      const update = cols.map((c) =>
        c.generated || c.identity === 'a'
          ? `${c.column}?: never`
          : `${c.column}?: ${tsType(c.typname, c.elemtype)}${c.notnull ? '' : ' | null'}`,
      );
      parts.push(`Insert: ${objectType(insert)}`, `Update: ${objectType(update)}`);
    }
    const rels = fks.map(
      (f) =>
        `{\n  foreignKeyName: ${q(f.name)}\n  columns: [${f.columns.map(q).join(', ')}]\n  isOneToOne: ${f.one_to_one}\n` +
        `  referencedRelation: ${q(f.referenced)}\n  referencedColumns: [${f.referenced_columns.map(q).join(', ')}]\n},`,
    );
    parts.push(rels.length ? `Relationships: [\n${indent(rels.join('\n'), 2)}\n]` : 'Relationships: []');
    return `${name}: {\n${indent(parts.join('\n'), 2)}\n}`;
  };

  const tables = info.relations.filter((r) => r.kind === 'r' || r.kind === 'p').map((r) => relationBlock(r.name, true));
  const views = info.relations.filter((r) => r.kind === 'v' || r.kind === 'm').map((r) => relationBlock(r.name, r.kind === 'v'));

  const composites = info.relations
    .filter((r) => r.kind === 'c')
    .map((r) => `${r.name}: ${objectType((byTable.get(r.name) ?? []).map((c) => `${c.column}: ${tsType(c.typname, c.elemtype)} | null`))}`);

  const functions = info.functions.map((fn) => {
    const all = fn.arg_types.map((t, i) => ({
      name: fn.arg_names?.[i] ?? '',
      type: t,
      elem: fn.arg_elemtypes[i] ?? null,
      mode: fn.arg_modes?.[i] ?? 'i',
    }));
    const inputs = all.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
    // `returns table (…)`: its columns, typed as the CLI types them (not null).
    const tableColumns = all.filter((a) => a.mode === 't');
    const defaults = fn.defaults ? fn.defaults.split(/,\s*(?![^()]*\))/) : [];
    const firstDefault = inputs.length - fn.n_defaults;
    const args = inputs
      .map((a, i) => {
        const hasDefault = i >= firstDefault;
        const nullDefault = hasDefault && /^NULL\b/i.test(defaults[i - firstDefault] ?? '');
        return `${a.name}${hasDefault ? '?' : ''}: ${tsType(a.type, a.elem)}${nullDefault ? ' | null' : ''}`;
      })
      .sort();
    let returns: string;
    let setof = '';
    const composite = fn.ret_table !== null && info.relations.some((r) => r.name === fn.ret_table && r.kind === 'c');
    if (tableColumns.length > 0) {
      returns = objectType(tableColumns.map((c) => `${c.name}: ${tsType(c.type, c.elem)}`).sort()) + (fn.retset ? '[]' : '');
    } else if (fn.ret_table && composite) {
      // A declared row type (create type … as): its fields, as the CLI types them (all nullable).
      returns = `Database["public"]["CompositeTypes"][${q(fn.ret_table)}]${fn.retset ? '[]' : ''}`;
    } else if (fn.ret_table) {
      returns = objectType(rowFields(byTable.get(fn.ret_table) ?? []));
      if (fn.retset) returns += '[]';
      setof = `\nSetofOptions: {\n  from: "*"\n  to: ${q(fn.ret_table)}\n  isOneToOne: ${!fn.retset}\n  isSetofReturn: ${fn.retset}\n}`;
    } else {
      returns = tsType(fn.ret_type, fn.ret_elemtype) + (fn.retset ? '[]' : '');
    }
    const argsType = args.length ? objectType(args) : 'never';
    return `${fn.name}: {\n${indent(`Args: ${argsType}\nReturns: ${returns}${setof}`, 2)}\n}`;
  });

  const section = (name: string, entries: string[]) =>
    `${name}: ${entries.length ? `{\n${indent(entries.join('\n'), 2)}\n}` : '{\n  [_ in never]: never\n}'}`;

  const schemaBlock = [
    section('Tables', tables),
    section('Views', views),
    section('Functions', functions),
    section(
      'Enums',
      info.enums.map((e) => `${e.name}: ${e.labels.map(q).join(' | ')}`),
    ),
    section('CompositeTypes', composites),
  ].join('\n');

  const constants = info.enums.length
    ? `{\n${info.enums.map((e) => `      ${e.name}: [${e.labels.map(q).join(', ')}],`).join('\n')}\n    }`
    : '{}';

  return `// GENERATED by scripts/gen-types.ts from supabase/migrations (npm run db:types). Do not edit.
export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: ${q(postgrestVersion)}
  }
  ${schema}: {
${indent(schemaBlock, 4)}
  }
}
${helperTypes}
export const Constants = {
  public: {
    Enums: ${constants},
  },
} as const
`;
}

// The helper types `supabase gen types typescript` appends, verbatim in shape.
const helperTypes = `
type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never
`;

/** The generated file's text for the current migrations. */
export async function generateDatabaseTypes(): Promise<string> {
  const db = await createTestDatabase();
  try {
    return render(await introspect(db));
  } finally {
    await db.close();
  }
}

async function main() {
  const check = process.argv.includes('--check');
  const generated = await generateDatabaseTypes();
  if (check) {
    const current = existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : '';
    if (current !== generated) {
      console.error('src/lib/database.types.ts is out of date with supabase/migrations: run `npm run db:types`.');
      process.exit(1);
    }
    console.log('src/lib/database.types.ts is current.');
    return;
  }
  writeFileSync(outputPath, generated);
  console.log('Wrote src/lib/database.types.ts');
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await main();
}
