import { toast } from '@/lib/toast';
import { CalendarSync, Copy, Lock } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Field, controlClasses } from '@/components/ui/field';
import { useRevokeCalendarToken } from '../api/revoke-calendar-token';
import { useRotateCalendarToken } from '../api/rotate-calendar-token';
import { CALENDAR_FEED_MESSAGES as M, calendarFeedUrl } from '../lib/calendar-feed';

/**
 * The member's private calendar subscription: create, copy, replace or turn off the link. `token`
 * comes from the cached profile, which the two token mutations update.
 */
export function CalendarFeedCard({ token }: { token: string | null }) {
  const rotate = useRotateCalendarToken();
  const revoke = useRevokeCalendarToken();
  const busy = rotate.isPending ? 'rotate' : revoke.isPending ? 'revoke' : null;
  const url = token ? calendarFeedUrl(window.location.origin, token) : null;

  function change(kind: 'rotate' | 'revoke') {
    if (token && !window.confirm(kind === 'rotate' ? M.confirmRotate : M.confirmRevoke)) return;
    const hadToken = token !== null;
    (kind === 'rotate' ? rotate : revoke).mutate(undefined, {
      onSuccess: () => toast.success(kind === 'revoke' ? M.revoked : hadToken ? M.rotated : M.created),
      onError: () => toast.error(M.failed),
    });
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast.success(M.copied);
    } catch {
      toast.error(M.copyFailed);
    }
  }

  return (
    <Card>
      <h2 id="calendar-feed-heading" className="flex items-center gap-2 text-lg font-semibold">
        <CalendarSync aria-hidden="true" className="h-5 w-5 text-brand-700" />
        {M.heading}
      </h2>
      <p className="mt-2 text-sm text-slate-600">{M.intro}</p>
      <p className="mt-3 flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        <Lock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
        {M.privacy}
      </p>
      {url ? (
        <div className="mt-4 space-y-3">
          <Field label="Calendar feed URL">
            {(control) => (
              <input
                {...control}
                type="text"
                readOnly
                value={url}
                onFocus={(e) => e.currentTarget.select()}
                className={cn(controlClasses(false), 'font-mono text-xs')}
              />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => void copy()}>
              <Copy aria-hidden="true" className="h-4 w-4" />
              {M.copy}
            </Button>
            <Button size="sm" variant="outline" loading={busy === 'rotate'} disabled={busy !== null} onClick={() => change('rotate')}>
              {M.rotate}
            </Button>
            <Button
              size="sm"
              variant="outline"
              className="border-red-300 text-red-700 hover:border-red-400 hover:bg-red-50"
              loading={busy === 'revoke'}
              disabled={busy !== null}
              onClick={() => change('revoke')}
            >
              {M.revoke}
            </Button>
          </div>
        </div>
      ) : (
        <Button className="mt-4" size="sm" loading={busy === 'rotate'} disabled={busy !== null} onClick={() => change('rotate')}>
          {M.create}
        </Button>
      )}
    </Card>
  );
}
