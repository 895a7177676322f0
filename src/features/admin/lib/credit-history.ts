import type { MemberCredit } from '../api/member-credits';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';

const KIND = {
  personal_training: 'Personal-training session',
  guest_pass: 'Guest pass',
  class: 'Class credit',
} as const;
const SOURCE: Record<string, string> = {
  package: 'Package',
  membership_period: 'Platinum Premium period',
  admin_grant: 'Granted',
  import: 'Carried over at import',
  referral: 'Referral reward',
};
const day = (iso: string) => formatInLondon(iso, DATE_FORMATS.date);

/** A credit's name and where it came from: 'Personal-training session · Granted: Goodwill'. */
export function creditTitle(c: Pick<MemberCredit, 'kind' | 'source' | 'reason'>): string {
  return `${KIND[c.kind]} · ${SOURCE[c.source] ?? c.source}${c.reason ? `: ${c.reason}` : ''}`;
}

/** What happened to a credit, as of `now`: available until, used for which session, revoked why, expired when. */
export function creditState(
  c: MemberCredit,
  now: Date,
): {
  state: 'available' | 'used' | 'revoked' | 'expired' | 'not_yet';
  words: string;
} {
  if (c.revoked_at)
    return {
      state: 'revoked',
      words: `Revoked ${day(c.revoked_at)}${c.revoke_reason ? `: ${c.revoke_reason}` : ''}`,
    };
  if (c.used_at) {
    const cls = c.booking?.class;
    return {
      state: 'used',
      words: cls
        ? `Used for ${cls.name} with ${cls.trainer}, ${formatInLondon(cls.start_time, 'd MMM yyyy, HH:mm')}`
        : `Used ${day(c.used_at)}`,
    };
  }
  if (new Date(c.expires_at) <= now) return { state: 'expired', words: `Expired ${day(c.expires_at)}` };
  if (new Date(c.valid_from) > now)
    return {
      state: 'not_yet',
      words: `Valid from ${day(c.valid_from)} to ${day(c.expires_at)}`,
    };
  return { state: 'available', words: `Available until ${day(c.expires_at)}` };
}
