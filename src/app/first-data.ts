import { loadAppQueryClient } from '@/lib/app-query-client';
import { ownMemberQuery } from '@/lib/auth/own-member';
import type { Member } from '@/lib/supabase';
import { storedSessionUser } from '@/lib/supabase-loader';
import { routeHandlesAt } from './router';

/*
 * The first reads of the busiest signed-in screens, started at boot (src/main.tsx) in parallel
 * with the screen's code (decision 0032). Otherwise they wait for the session, the screen's code
 * (and on /admin the admin check), then the screen's first render, one after the other. Each
 * screen declares its reads beside its route (`handle: withFirstReads(...)`, first-reads.ts), so
 * a screen and its reads cannot drift apart by path.
 */

/**
 * Starts a signed-in page's first reads for the stored session's user: in the admin area the admin
 * check, then the screen's reads once it has passed; on a member page the screen's reads once the
 * member's id is known (from the saved copy, or read). Nothing without a stored session.
 */
export async function startFirstReads(pathname: string): Promise<void> {
  const user = storedSessionUser();
  if (!user) return;
  const location = { pathname: pathname.replace(/(.)\/+$/, '$1') };
  // The route table (and the admin area's) loads beside the client and, for an admin, the check.
  const [client, { handles, adminArea }] = await Promise.all([loadAppQueryClient(), routeHandlesAt(location)]);
  const declared = handles.findLast((handle) => handle.firstReads)?.firstReads;
  if (adminArea) {
    // An admin screen's reads wait for the check: refused to someone else, they would only be
    // errors in the console of a member who typed an admin URL.
    const { adminFlagQueryOptions } = await import('@/features/admin/api/get-admin-flag');
    const [isAdmin, reads] = await Promise.all([user.email ? client.fetchQuery(adminFlagQueryOptions(user.email)) : false, declared?.()]);
    if (isAdmin === true && reads && 'admin' in reads) reads.admin(client);
    return;
  }
  if (!declared) return;
  // A returning member's row is in the cache already (their saved copy, decision 0028): its id is
  // known, so the reads leave beside the row's own revalidation instead of after it.
  const ownMember = ownMemberQuery(user.id);
  const known = client.getQueryData<Member | null>(ownMember.queryKey)?.id;
  const [id, reads] = await Promise.all([known ?? client.fetchQuery(ownMember).then((member) => member?.id ?? null), declared()]);
  if (id && 'member' in reads) reads.member(client, id);
}
