import { useCallback } from 'react';
import { isLocked, unlockTime, type LockViewer } from '@/lib/rules/lock-window';
import type { ClassRow } from '@/lib/supabase';
import type { ClassLock } from '../components/class-card';

/** The lock of each class for this viewer at `now` (spec section 4). */
export function useClassLock(viewer: LockViewer, now: Date) {
  const { tier, trialExempt } = viewer;
  return useCallback(
    (cls: ClassRow): ClassLock => ({ locked: isLocked(cls, { tier, trialExempt }, now), opensAt: unlockTime(cls) }),
    [tier, trialExempt, now],
  );
}
