import { useId } from 'react';
import { Smartphone } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { controlClasses } from '@/components/ui/field-styles';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth/auth-context';
import { toast } from '@/lib/toast';
import { PushBlockedError, PushRefusedError, usePushDevice, useSetPushDevice, type PushDeviceState } from '../api/push-device';
import { usePushPreferences, useSetPushPreferences, type PushPreferences } from '../api/push-preferences';
import { PUSH_MESSAGES as M, QUIET_HOURS_DEFAULT, QUIET_HOURS_OPTIONS, REMINDER_OPTIONS } from '../lib/push-messages';

/**
 * /edit-profile, beside the preferences grid (decisions 0023, 0091): turn pushes on or off for
 * this browser, and choose when they come: the reminder before an early class and quiet hours.
 * Which pushes come is chosen in the grid. The choices are the member's, on every device; each
 * change is saved at once.
 */
export function PushNotificationsCard() {
  const { member } = useAuth();
  if (!member) return null;
  return <PushNotificationsForm memberId={member.id} />;
}

function PushNotificationsForm({ memberId }: { memberId: string }) {
  return (
    <Card aria-labelledby="push-notifications-heading">
      <h2 id="push-notifications-heading" className="flex items-center gap-2 text-lg font-semibold">
        <Smartphone aria-hidden="true" className="h-5 w-5 text-brand-700" />
        {M.heading}
      </h2>
      <p className="mt-2 text-sm text-slate-600">{M.intro}</p>
      <ThisDevice memberId={memberId} />
      <Preferences memberId={memberId} />
    </Card>
  );
}

const DEVICE_TEXT: Record<Exclude<PushDeviceState, 'off'>, string> = {
  unsupported: M.unsupported,
  blocked: M.blocked,
  refused: M.privateWindow,
  on: M.deviceOn,
};

/** Why turning on failed, in words that say what would help: "try again" only where it might. */
function turnOnFailure(error: unknown): string {
  if (error instanceof PushBlockedError) return M.blocked;
  if (error instanceof PushRefusedError) return M.privateWindow;
  return M.turnOnFailed;
}

function ThisDevice({ memberId }: { memberId: string }) {
  const device = usePushDevice(memberId);
  const change = useSetPushDevice(memberId);

  function set(on: boolean) {
    change.mutate(on, {
      onSuccess: (state) => {
        if (state === 'on') toast.success(M.turnedOn);
        else if (state === 'off') toast.success(M.turnedOff);
      },
      onError: (error) => toast.error(on ? turnOnFailure(error) : M.turnOffFailed),
    });
  }

  if (device.isPending) return <Spinner label="Checking this device" />;
  const state: PushDeviceState = device.isError ? 'off' : device.data;
  return (
    <div className="mt-4 rounded-lg bg-slate-50 p-3">
      {state !== 'off' && <p className="text-sm text-slate-700">{DEVICE_TEXT[state]}</p>}
      {state === 'off' && (
        <Button onClick={() => set(true)} loading={change.isPending}>
          {M.turnOn}
        </Button>
      )}
      {state === 'on' && (
        <Button variant="secondary" className="mt-2" onClick={() => set(false)} loading={change.isPending}>
          {M.turnOff}
        </Button>
      )}
    </div>
  );
}

function Preferences({ memberId }: { memberId: string }) {
  const preferences = usePushPreferences(memberId);
  const save = useSetPushPreferences(memberId);
  const id = useId();

  if (preferences.isPending) return <Spinner label="Loading your notification settings" />;
  if (preferences.isError) {
    return (
      <p role="alert" className="mt-3 text-sm text-red-700">
        {M.loadFailed}
      </p>
    );
  }
  const shown: PushPreferences = save.isPending && save.variables ? save.variables : preferences.data;
  const update = (change: Partial<PushPreferences>) =>
    save.mutate({ ...shown, ...change }, { onSuccess: () => toast.success(M.saved), onError: () => toast.error(M.saveFailed) });

  const quiet = shown.quietFrom !== null;

  return (
    <div className="mt-4 space-y-3">
      <div>
        <label htmlFor={`${id}-reminder`} className="font-medium text-slate-900">
          {M.reminder}
        </label>
        <p id={`${id}-reminder-hint`} className="text-sm text-slate-600">
          {M.reminderHint}
        </p>
        <select
          id={`${id}-reminder`}
          className={`${controlClasses(false)} mt-1`}
          value={shown.reminderMinutes}
          disabled={save.isPending}
          aria-describedby={`${id}-reminder-hint`}
          onChange={(event) => {
            const value = event.currentTarget.value;
            const chosen = REMINDER_OPTIONS.find((o) => String(o.minutes) === value);
            if (chosen) update({ reminderMinutes: chosen.minutes });
          }}
        >
          {REMINDER_OPTIONS.map((o) => (
            <option key={o.label} value={o.minutes}>
              {o.label}
            </option>
          ))}
        </select>
      </div>

      <label className="flex min-h-11 cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          role="switch"
          className="mt-1 h-5 w-5 shrink-0 accent-brand-600"
          checked={quiet}
          disabled={save.isPending}
          onChange={(event) => update(event.currentTarget.checked ? QUIET_HOURS_DEFAULT : { quietFrom: null, quietUntil: null })}
          aria-labelledby={`${id}-quiet`}
          aria-describedby={`${id}-quiet-hint`}
        />
        <span>
          <span id={`${id}-quiet`} className="font-medium text-slate-900">
            {M.quietHours}
          </span>
          <span id={`${id}-quiet-hint`} className="block text-sm text-slate-600">
            {M.quietHoursHint}
          </span>
        </span>
      </label>
      {quiet && (
        <div className="grid grid-cols-2 gap-3">
          {(['quietFrom', 'quietUntil'] as const).map((key) => (
            <div key={key}>
              <label htmlFor={`${id}-${key}`} className="text-sm font-medium text-slate-900">
                {key === 'quietFrom' ? M.quietFrom : M.quietUntil}
              </label>
              <select
                id={`${id}-${key}`}
                className={`${controlClasses(false)} mt-1`}
                value={shown[key] ?? ''}
                disabled={save.isPending}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  const other = key === 'quietFrom' ? shown.quietUntil : shown.quietFrom;
                  if (value === other) {
                    toast.error(M.quietSame);
                    return;
                  }
                  update({ [key]: value });
                }}
              >
                {QUIET_HOURS_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
