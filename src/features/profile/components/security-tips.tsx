import { ShieldCheck } from 'lucide-react';
import { Card } from '@/components/ui/card';

const TIPS = [
  'Use a password you do not use anywhere else.',
  'Mix letters, numbers and symbols, and make it longer than the minimum.',
  'Never share your password; the studio will never ask for it.',
  'Log out when you use a shared or public device.',
];

export function SecurityTips() {
  return (
    <Card>
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <ShieldCheck aria-hidden="true" className="h-5 w-5 text-brand-600" /> Security Tips
      </h2>
      <ul className="mt-4 list-disc space-y-2 pl-5 text-sm text-slate-700">
        {TIPS.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
    </Card>
  );
}
