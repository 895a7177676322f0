import type { Database } from './database.types';

type Composites = Database['public']['CompositeTypes'];

/**
 * A declared row type (`create type … as`) as an RPC returns it. `npm run db:types` marks every
 * field of a composite type nullable, as the Supabase CLI does; `Filled` names the fields the SQL
 * always sets (all of them by default), which the caller may then read without a null check.
 */
export type CompositeRow<Name extends keyof Composites, Filled extends keyof Composites[Name] = keyof Composites[Name]> = Omit<
  Composites[Name],
  Filled
> & {
  [K in Filled]-?: NonNullable<Composites[Name][K]>;
};

/**
 * An RPC's `data` of a declared row type, read as CompositeRow<Name, Filled>. It takes the
 * generated type, so a changed RPC result fails `npm run typecheck` at the call.
 */
export function compositeRow<Name extends keyof Composites, Filled extends keyof Composites[Name] = keyof Composites[Name]>(
  row: Composites[Name],
): CompositeRow<Name, Filled> {
  // The one assertion: which fields the SQL always sets is not in the catalogue the types come from.
  return row as unknown as CompositeRow<Name, Filled>;
}

/** compositeRow for an RPC returning a set (or an array) of a declared row type. */
export function compositeRows<Name extends keyof Composites, Filled extends keyof Composites[Name] = keyof Composites[Name]>(
  rows: Composites[Name][],
): CompositeRow<Name, Filled>[] {
  return rows as unknown as CompositeRow<Name, Filled>[];
}
