import { AuthClient } from '@supabase/auth-js';
import { compositeRow } from '../../src/lib/composite-row';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { bearerToken, handle, HttpError, json, methodNotAllowed, readRequest } from '../lib/http';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv, type ServerEnv } from '../lib/server-env';
import { memberDb, verifyCaller } from '../lib/supabase-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FAILED = 'Failed to delete member';

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
 * → 200 { memberId, refundsOwed }. An admin's delete ends the person's access (decision 0010):
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
    const body = await readRequest<'delete-member'>(req);
    const env = readServerEnv();
    if ('own' in body && body.own === true) return closeOwnAccount(env, token);
    const memberId = 'memberId' in body ? body.memberId : undefined;
    if (typeof memberId !== 'string' || !UUID.test(memberId)) {
      throw new HttpError(400, 'invalid_request', 'memberId must be a member id');
    }
    await verifyCaller(env, token);
    const db = memberDb(env, token);

    // As the admin, the database decides (admin_member_removal_target): the caller is an admin,
    // the member exists and is not the caller, ids compared as uuids (a capitalised own id is
    // still the caller's). Only then is the login removed.
    const { data: targetUserId, error: targetError } = await db.rpc('admin_member_removal_target', { p_member_id: memberId });
    if (targetError) throw rpcFailure(targetError, 'admin_member_removal_target');

    if (targetUserId) await removeLogin(env, targetUserId);

    const { data, error } = await db.rpc('admin_delete_member', { p_member_id: memberId });
    if (error) throw rpcFailure(error, 'admin_delete_member');
    return answer(data);
  });
}

/** Removes a login through the auth service; already gone (a retry) is fine. */
async function removeLogin(env: ServerEnv, userId: string): Promise<void> {
  const { error } = await authAdmin(env).deleteUser(userId);
  if (error && error.status !== 404) throw new Error(`auth user delete failed: ${error.status ?? ''} ${error.message}`);
}

function answer(data: unknown): Response {
  const removal = compositeRow<'member_removal', 'member_id' | 'refunds_owed'>(data as never);
  return json({ memberId: removal.member_id, refundsOwed: removal.refunds_owed } satisfies FunctionAnswer<'delete-member'>);
}

/**
 * A member closes their own account (decision 0047): as the member, the database cancels their
 * future bookings by the normal rules and runs the same removal as an admin's delete
 * (close_my_account, then private.remove_member); then their login is removed. The order is the
 * reverse of an admin's: the member's own token is what lets the database find them, and removing
 * the login first would unlink it. Should the login removal fail, the data is already gone and the
 * login finds no member (a new sign-in starts an empty account); the error is reported.
 */
async function closeOwnAccount(env: ServerEnv, token: string): Promise<Response> {
  const caller = await verifyCaller(env, token);
  const { data, error } = await memberDb(env, token).rpc('close_my_account');
  if (error) throw rpcFailure(error, 'close_my_account');
  await removeLogin(env, compositeRow<'member_removal', 'user_id'>(data).user_id ?? caller.userId);
  return answer(data);
}
