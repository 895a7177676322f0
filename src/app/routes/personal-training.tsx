import { NOT_AVAILABLE_OFFLINE } from '@/app/pwa/offline-messages';
import { OnlineOnly } from '@/app/pwa/offline-notice';
import { useNow } from '@/hooks/use-now';
import { useOnline } from '@/hooks/use-online';
import { PageHeading } from '@/features/booking/components/page-heading';
import { PersonalTraining } from '@/features/booking/components/personal-training';

const MINUTE = 60_000;

/**
 * /personal-training: One-to-One sessions with a trainer, booked with a session credit or paid.
 * Not kept on the phone (decision 0019): offline it says so instead of waiting.
 */
export function PersonalTrainingRoute() {
  const now = useNow(MINUTE);
  const online = useOnline();
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <PageHeading title="Personal training">
        One-to-One sessions with a trainer, booked with a personal-training session or paid by card.
      </PageHeading>
      <OnlineOnly online={online} message={NOT_AVAILABLE_OFFLINE}>
        <PersonalTraining now={now} />
      </OnlineOnly>
    </section>
  );
}
