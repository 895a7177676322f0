import { useNow } from '@/hooks/use-now';
import { PageHeading } from '@/features/booking/components/page-heading';
import { PersonalTraining } from '@/features/booking/components/personal-training';

const MINUTE = 60_000;

/** /personal-training: One-to-One sessions with a trainer, booked with a session credit or paid. */
export function PersonalTrainingRoute() {
  const now = useNow(MINUTE);
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <PageHeading title="Personal training">
        One-to-One sessions with a trainer, booked with a personal-training session or paid by card.
      </PageHeading>
      <PersonalTraining now={now} />
    </section>
  );
}
