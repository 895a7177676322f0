import type { SqlExecutor } from './open-database.ts';

// What "the same database" means for the schema files (supabase/schemas) and the migrations: the
// same objects with the same definitions, privileges and comments. Each line names one object
// and states all of it, so a difference reads as one line added or removed. Columns are compared
// by name, not position (a column a migration added last is declared with its table).

const ours = `('public', 'private')`;

const queries: Record<string, string> = {
  schemas: `
    select n.nspname || ' acl=' || coalesce(n.nspacl::text, '') || ' comment=' || coalesce(obj_description(n.oid, 'pg_namespace'), '')
      from pg_namespace n where n.nspname in ${ours}`,
  functions: `
    select p.oid::regprocedure::text || ' acl=' || coalesce(p.proacl::text, '')
           || ' owner=' || pg_get_userbyid(p.proowner)
           || ' comment=' || coalesce(obj_description(p.oid, 'pg_proc'), '') || E'\\n' || pg_get_functiondef(p.oid)
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname in ${ours}`,
  relations: `
    select c.oid::regclass::text || ' kind=' || c.relkind::text || ' rls=' || c.relrowsecurity || '/' || c.relforcerowsecurity
           || ' acl=' || coalesce(c.relacl::text, '') || ' owner=' || pg_get_userbyid(c.relowner)
           || ' comment=' || coalesce(obj_description(c.oid, 'pg_class'), '')
           || case when c.relkind = 'v' then E'\\n' || pg_get_viewdef(c.oid) else '' end
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ${ours} and c.relkind in ('r', 'v', 'm', 'p', 'S')`,
  columns: `
    select a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || case when a.attnotnull then ' not null' else '' end
           || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
           || case when a.attgenerated <> '' then ' generated' else '' end
           || ' identity=' || a.attidentity::text || ' acl=' || coalesce(a.attacl::text, '')
           || ' comment=' || coalesce(col_description(a.attrelid, a.attnum), '')
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where n.nspname in ${ours} and c.relkind in ('r', 'v', 'm', 'p') and a.attnum > 0 and not a.attisdropped`,
  constraints: `
    select con.conrelid::regclass::text || ' ' || con.conname || ': ' || pg_get_constraintdef(con.oid)
           || ' comment=' || coalesce(obj_description(con.oid, 'pg_constraint'), '')
      from pg_constraint con join pg_namespace n on n.oid = con.connamespace
     where n.nspname in ${ours} and con.conrelid <> 0`,
  indexes: `select indexdef from pg_indexes where schemaname in ${ours}`,
  policies: `
    select schemaname || '.' || tablename || ' ' || policyname || ' ' || permissive || ' ' || roles::text || ' ' || cmd
           || ' using ' || coalesce(qual, '') || ' check ' || coalesce(with_check, '')
      from pg_policies where schemaname in ${ours} or schemaname = 'storage'`,
  triggers: `
    select pg_get_triggerdef(t.oid) from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
     where not t.tgisinternal and (n.nspname in ${ours} or t.tgfoid in (
       select p.oid from pg_proc p join pg_namespace pn on pn.oid = p.pronamespace where pn.nspname in ${ours}))`,
  types: `
    select t.oid::regtype::text || ' ' || t.typtype::text || ' acl=' || coalesce(t.typacl::text, '')
           || ' comment=' || coalesce(obj_description(t.oid, 'pg_type'), '') || ' '
           || case t.typtype
                when 'e' then (select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid)
                when 'c' then (select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' order by a.attnum)
                                 from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped)
                when 'd' then format_type(t.typbasetype, t.typtypmod) || ' ' || coalesce((
                                 select string_agg(pg_get_constraintdef(c.oid), ' ' order by c.conname)
                                   from pg_constraint c where c.contypid = t.oid), '')
                else '' end
      from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where n.nspname in ${ours} and t.typtype in ('e', 'c', 'd')
       and (t.typrelid = 0 or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')`,
  'default privileges': `
    select pg_get_userbyid(d.defaclrole) || ' ' || coalesce(n.nspname, '*') || ' ' || d.defaclobjtype::text || ' ' || d.defaclacl::text
      from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace`,
  publications: `select pubname || ' ' || schemaname || '.' || tablename from pg_publication_tables`,
  // Reference data the product cannot run without (the plan catalogue, the avatar bucket).
  'reference data': `
    select 'plan ' || row_to_json(p)::text from public.plans p
    union all select 'bucket ' || b.id || ' public=' || b.public || ' limit=' || coalesce(b.file_size_limit::text, '')
      || ' types=' || coalesce(b.allowed_mime_types::text, '') from storage.buckets b`,
};

export type Catalogue = Record<string, string[]>;

/** Every object this project defines, one sorted list of lines per kind. */
export async function readCatalogue(db: SqlExecutor): Promise<Catalogue> {
  const catalogue: Catalogue = {};
  // An empty search_path makes every name print schema-qualified (public.payments, not payments).
  const { rows: before } = await db.query<{ path: string }>(`select current_setting('search_path') as path`);
  await db.query(`select set_config('search_path', '', false)`);
  try {
    for (const [kind, sql] of Object.entries(queries)) {
      const { rows } = await db.query<Record<string, string>>(`select line from (${sql}) as q(line) order by 1`);
      catalogue[kind] = rows.map((r) => r.line!);
    }
  } finally {
    await db.query(`select set_config('search_path', $1, false)`, [before[0]?.path ?? '']);
  }
  return catalogue;
}

/** Lines only one side has, as `- [kind] line` (only in `a`) and `+ [kind] line` (only in `b`). */
export function diffCatalogues(a: Catalogue, b: Catalogue): string[] {
  const lines: string[] = [];
  for (const kind of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const left = new Set(a[kind] ?? []);
    const right = new Set(b[kind] ?? []);
    for (const line of left) if (!right.has(line)) lines.push(`- [${kind}] ${line}`);
    for (const line of right) if (!left.has(line)) lines.push(`+ [${kind}] ${line}`);
  }
  return lines;
}
