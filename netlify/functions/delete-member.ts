import { AuthClient } from '@supabase/auth-js';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readJsonObject } from '../lib/http';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv, type ServerEnv } from '../lib/server-env';
import { memberDb, verifyCaller } from '../lib/supabase-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FAILED = 'Failed to delete member';

type MemberRow = { id: string; user_id: string | null; is_admin: boolean };
type Removal = { member_id: string; user_id: string | null; refunds_owed: number };

/** GoTrue's admin API with the service key: the only way hosted Supabase removes a login. */
function authAdmin(env: ServerEnv) {
  return new AuthClient({
    url: `${env.supabaseUrl}/auth/v1`,
    headers: { apikey: env.serviceRoleKey, Authorization: `Bearer ${env.serviceRoleKey}` },
    persistSession: false,
    autoRefreshToken: false,
    detectSessionInUrl: false,
  }).admin;
}

/**
 * POST /.netlify/functions/delete-member  { memberId }  Authorization: Bearer <admin session>
 * → 200 { memberId, refundsOwed }. An admin's delete ends the person's access (issue 14):
 * 1. their login is removed through the auth service, which ends their sessions (members.user_id
 *    is set null by the foreign key); a failure here changes nothing and can be retried;
 * 2. admin_delete_member removes the member (bookings, refunds owed, payments kept, the trial
 *    remembered). Should it fail after 1, the member stays listed without a login and the admin's
 *    retry skips step 1.
 */
export default async function deleteMember(req: Request): Promise<Response> {
  return handle('delete-member', FAILED, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const { memberId } = await readJsonObject(req);
    if (typeof memberId !== 'string' || !UUID.test(memberId)) {
      throw new HttpError(400, 'invalid_request', 'memberId must be a member id');
    }
    const env = readServerEnv();
    const caller = await verifyCaller(env, token);
    const db = memberDb(env, token);

    // As the admin: row-level security lets only an admin read other members.
    const { data: self, error: selfError } = await db.from('members').select('id, user_id, is_admin').eq('user_id', caller.userId).maybeSingle<MemberRow>();
    if (selfError) throw new Error(`members lookup failed: ${selfError.message}`);
    if (!self?.is_admin) throw new HttpError(403, 'not_admin', 'Access denied');
    if (self.id === memberId) throw new HttpError(409, 'cannot_delete_self', 'You cannot delete your own account here');

    const { data: target, error: targetError } = await db.from('members').select('id, user_id, is_admin').eq('id', memberId).maybeSingle<MemberRow>();
    if (targetError) throw new Error(`members lookup failed: ${targetError.message}`);
    if (!target) throw new HttpError(404, 'member_not_found', 'Member record not found');

    if (target.user_id) {
      const { error } = await authAdmin(env).deleteUser(target.user_id);
      // Already gone (a retry after a partial failure) is fine; anything else stops here.
      if (error && error.status !== 404) throw new Error(`auth user delete failed: ${error.status ?? ''} ${error.message}`);
    }

    const { data, error } = await db.rpc('admin_delete_member', { p_member_id: memberId }).single<Removal>();
    if (error) throw rpcFailure(error, 'admin_delete_member');
    return json({ memberId: data.member_id, refundsOwed: data.refunds_owed });
  });
}
