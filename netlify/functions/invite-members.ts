import { AuthClient } from '@supabase/auth-js';
import type { FunctionAnswer } from '../../src/lib/functions-contract';
import { bearerToken, handle, json, methodNotAllowed } from '../lib/http';
import { rpcFailure } from '../lib/rpc-errors';
import { readServerEnv, type ServerEnv } from '../lib/server-env';
import { memberDb, serviceDb, verifyCaller } from '../lib/supabase-server';

const FAILED = 'The invitations could not be sent';

/** GoTrue's admin API with the service key: only it sends an invitation (POST /invite). */
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
 * POST /.netlify/functions/invite-members  {}  Authorization: Bearer <admin session>
 * → 200 { invited, failed }. "Send invitations" in Admin > Import (decision 0065): each imported
 * member with no sign-in yet, not invited before, is sent GoTrue's invitation (the invite template:
 * a link to choose a password, not a reset), then marked invited so a second press sends nothing
 * twice. The admin check is the database's (admin_members_to_invite, as the caller). A member the
 * auth service refuses (say, an address that signed up meanwhile) is reported and stays unmarked.
 */
export default async function inviteMembers(req: Request): Promise<Response> {
  return handle('invite-members', FAILED, async () => {
    if (req.method !== 'POST') return methodNotAllowed('POST');
    const token = bearerToken(req);
    const env = readServerEnv();
    await verifyCaller(env, token);
    const { data: waiting, error } = await memberDb(env, token).rpc('admin_members_to_invite');
    if (error) throw rpcFailure(error, 'admin_members_to_invite');

    const admin = authAdmin(env);
    const service = serviceDb(env);
    const failed: { email: string; message: string }[] = [];
    let invited = 0;
    for (const member of waiting ?? []) {
      const { error: inviteError } = await admin.inviteUserByEmail(member.email, {
        data: member.name ? { full_name: member.name } : {},
        redirectTo: `${env.siteUrl}/auth/callback`,
      });
      if (inviteError) {
        failed.push({ email: member.email, message: inviteError.message });
        continue;
      }
      const { error: markError } = await service.rpc('mark_member_invited', { p_member_id: member.member_id });
      if (markError) throw rpcFailure(markError, 'mark_member_invited');
      invited += 1;
    }
    return json({ invited, failed } satisfies FunctionAnswer<'invite-members'>);
  });
}
