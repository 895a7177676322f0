import { MemberImportPanel } from '@/features/admin/components/member-import-panel';
import { PageHeading } from '@/features/admin/components/page-heading';

/** /admin/import: members from another platform or a spreadsheet (decision 0065). */
export function AdminImportRoute() {
  return (
    <>
      <PageHeading title="Import" subtitle="Bring members, their plans, sessions left and children from a CSV." />
      <MemberImportPanel />
    </>
  );
}
