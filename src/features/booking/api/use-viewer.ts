import { useAuth } from '@/lib/auth/auth-context';
import type { Viewer } from './get-class-schedule';

/** Who the schedule's facts are for (a guest or this member), and whether that is known yet. */
export function useViewer() {
  const { loading, session, member, memberLoading } = useAuth();
  const viewer: Viewer = session ? (member?.id ?? 'guest') : 'guest';
  // A session restored from this device while GoTrue confirms it counts (decision 0111): its
  // member row comes from the same saved copy.
  const ready = (session !== null || !loading) && !(session && memberLoading);
  return { viewer, ready, signedIn: Boolean(session), memberId: session ? (member?.id ?? null) : null, member };
}
