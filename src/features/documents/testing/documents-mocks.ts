import { restGet, rpc } from '@/testing/supabase-mocks';
import type { DocumentVersion } from '../api/get-document';
import type { MyDocument } from '../api/get-my-documents';

const published = '2026-01-01T00:00:00Z';

/** The current booking documents as the seed publishes them (short texts). */
export const TEST_DOCUMENTS: DocumentVersion[] = [
  {
    id: 'd0000000-0000-4000-8000-000000000001',
    kind: 'terms',
    version: 1,
    title: 'Terms of Membership',
    body: 'Book and cancel in good time.',
    questions: null,
    summary: null,
    published_at: published,
    published_by: null,
  },
  {
    id: 'd0000000-0000-4000-8000-000000000002',
    kind: 'waiver',
    version: 2,
    title: 'Liability Waiver and Assumption of Risk',
    body: 'Exercise carries a risk of injury.',
    questions: null,
    summary: 'Outdoor sessions added.',
    published_at: published,
    published_by: null,
  },
  {
    id: 'd0000000-0000-4000-8000-000000000003',
    kind: 'parq',
    version: 1,
    title: 'Physical Activity Readiness Questionnaire (PAR-Q)',
    body: 'Answer each question honestly.',
    questions: [
      'Has your doctor ever said that you have a heart condition?',
      'Do you feel pain in your chest when you do physical activity?',
    ],
    summary: null,
    published_at: published,
    published_by: null,
  },
];

/** The children's health questionnaire a parent answers for each child (decision 0093): not a member's document. */
export const TEST_CHILD_QUESTIONNAIRE: DocumentVersion = {
  id: 'd0000000-0000-4000-8000-000000000006',
  kind: 'child_parq',
  version: 1,
  title: "Children's health questionnaire",
  body: 'Answer these for your child.',
  questions: ['Does your child have asthma?', 'Has your child had an injury in the last six months?'],
  summary: null,
  published_at: published,
  published_by: null,
};

/** my_documents as the database answers it: every document current (`signed`) or none signed yet. */
export function myDocumentsRows(signed: boolean): MyDocument[] {
  return TEST_DOCUMENTS.map((d) => ({
    kind: d.kind,
    document_id: d.id,
    version: d.version,
    title: d.title,
    summary: d.summary,
    accepted_version: signed ? d.version : null,
    accepted_at: signed ? '2026-02-01T10:00:00Z' : null,
    is_current: signed,
  }));
}

/** Handlers for a screen that reads where the member stands (the dashboard, the sign page). */
export function documentsHandlers(options: { signed: boolean }) {
  return [
    rpc('my_documents', () => myDocumentsRows(options.signed)),
    restGet('document_versions', ({ url }) => {
      const ids = (url.searchParams.get('id') ?? '').replace(/^in\.\(|\)$/g, '').split(',');
      const kind = url.searchParams.get('kind')?.replace(/^eq\./, '');
      return [...TEST_DOCUMENTS, TEST_CHILD_QUESTIONNAIRE].filter((d) => ids.includes(d.id) || d.kind === kind);
    }),
    restGet('health_answers', () => []),
  ];
}
