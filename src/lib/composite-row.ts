import type { Database } from './database.types';

type Composites = Database['public']['CompositeTypes'];

/**
 * A declared row type (`create type … as`) as an RPC returns it. `npm run db:types` marks every
 * field of a composite type nullable, as the Supabase CLI does; `Filled` names the fields the SQL
 * always sets (all of them by default), which the caller may then read without a null check.
 */
export type CompositeRow<Name extends keyof Composites, Filled extends keyof Composites[Name] = keyof Composites[Name]> = Omit<Composites[Name], Filled> & {
  [K in Filled]-?: NonNullable<Composites[Name][K]>;
};
