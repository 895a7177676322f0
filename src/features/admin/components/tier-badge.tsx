import { Badge, type BadgeTone } from '@/components/ui/badge';
import { TIER_LABELS, displayTier } from '../lib/membership-tier';

const TIER_TONES = { premium: 'purple', standard: 'info', payg: 'neutral' } as const satisfies Record<string, BadgeTone>;

export function TierBadge({ tier }: { tier: string | null }) {
  const shown = displayTier(tier);
  return <Badge tone={TIER_TONES[shown]}>{TIER_LABELS[shown]}</Badge>;
}
