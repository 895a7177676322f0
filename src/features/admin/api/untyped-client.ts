import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * Studio closures (issue 12) are built against the agreed contract before their migration lands
 * in `database.types.ts`; until `npm run db:types` includes them, their calls go through the
 * client without the generated types and every result is parsed with zod.
 */
export const untypedClient = (client: object) => client as SupabaseClient;
