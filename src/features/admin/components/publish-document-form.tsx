import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextAreaField, TextField } from '@/components/ui/field';
import { toast } from '@/lib/toast';
import { usePublishDocument, type DocumentKind, type DocumentVersion } from '../api/documents-admin';
import { DOCUMENT_NAMES, isHealthQuestionnaire } from '@/config/documents';

const schema = z.object({
  title: z.string().trim().min(1, 'A title is required'),
  body: z.string().trim().min(1, 'The text is required'),
  summary: z.string().trim().max(500),
  questions: z.string(),
});
type Values = z.infer<typeof schema>;

/** The PAR-Q's questions, one a line, blank lines dropped. */
const questionLines = (text: string) =>
  text
    .split('\n')
    .map((q) => q.trim())
    .filter(Boolean);

/**
 * Publish a new version of one document, prefilled with the current one. Publishing
 * the terms, waiver or PAR-Q asks every member to sign again before their next booking.
 */
export function PublishDocumentForm({
  kind,
  current,
  onDone,
}: {
  kind: DocumentKind;
  current: DocumentVersion | null;
  onDone: () => void;
}) {
  const publish = usePublishDocument();
  const [questionsError, setQuestionsError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      title: current?.title ?? DOCUMENT_NAMES[kind],
      body: current?.body ?? '',
      summary: '',
      questions: Array.isArray(current?.questions) ? current.questions.filter((q) => typeof q === 'string').join('\n') : '',
    },
  });

  const submit = handleSubmit((values) => {
    const questions = isHealthQuestionnaire(kind) ? questionLines(values.questions) : null;
    if (questions?.length === 0) {
      setQuestionsError('Add at least one question');
      return;
    }
    setQuestionsError(null);
    if (publish.isPending) return;
    const asksAgain = kind === 'terms' || kind === 'waiver' || kind === 'parq';
    // The children's questionnaire is answered again by each parent for each child before their next booking.
    const question =
      kind === 'child_parq'
        ? `Publish a new ${DOCUMENT_NAMES[kind]}? Parents will be asked to answer it for each child before the child's next booking.`
        : `Publish a new ${DOCUMENT_NAMES[kind]}? Every member will be asked to sign it before their next booking.`;
    if ((asksAgain || kind === 'child_parq') && !window.confirm(question)) return;
    publish.mutate(
      { kind, title: values.title, body: values.body, summary: values.summary, questions },
      {
        onSuccess: (doc) => {
          toast.success(`${DOCUMENT_NAMES[kind]} version ${doc.version} published`);
          onDone();
        },
        onError: (error) =>
          toast.error('hint' in error && typeof error.hint === 'string' && error.hint ? error.message : 'Could not publish the document'),
      },
    );
  });

  return (
    <Card>
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <h2 className="text-lg font-semibold">New version: {DOCUMENT_NAMES[kind]}</h2>
        <TextField label="Title" required error={formState.errors.title?.message} {...register('title')} />
        <TextAreaField
          label="Text"
          rows={14}
          required
          hint="A blank line starts a new paragraph."
          error={formState.errors.body?.message}
          {...register('body')}
        />
        {isHealthQuestionnaire(kind) && (
          <TextAreaField label="Questions (one a line)" rows={8} required error={questionsError} {...register('questions')} />
        )}
        <TextField
          label="What changed"
          optional
          hint="Shown to members asked to sign again."
          error={formState.errors.summary?.message}
          {...register('summary')}
        />
        <div className="flex gap-3">
          <Button type="submit" loading={publish.isPending}>
            {publish.isPending ? 'Publishing...' : 'Publish'}
          </Button>
          <Button variant="outline" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
