import { PageHeading } from '@/features/admin/components/page-heading';
import { TrainersPanel } from '@/features/admin/components/trainers-panel';

/** /admin/trainers: the studio's trainers. */
export function AdminTrainersRoute() {
  return (
    <>
      <PageHeading title="Trainers" subtitle="Who teaches at the studio: name, a short bio and a photo." />
      <TrainersPanel />
    </>
  );
}
