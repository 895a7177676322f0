import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import {
  reviewSettingsSchema,
  useReviewRequestSettings,
  useSaveReviewRequestSettings,
  type ReviewRequestSettings,
  type ReviewSettingsForm,
} from '../api/review-requests';

/**
 * Review requests (decision 0088): after a member's Nth attended class, one email asks how it went
 * and offers the studio's review link, the same to everyone (no asking who was happy first, no
 * reward), at most once in M months. Members can turn them off on Edit Profile.
 */
export function ReviewRequestsPanel() {
  const settings = useReviewRequestSettings();
  return (
    <section aria-labelledby="review-requests-heading" className="mt-10">
      <h2 id="review-requests-heading" className="mb-1 text-xl font-bold text-slate-900">
        Review requests
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Every member who reaches the number of classes gets the same email with your review link, whatever they thought: the law and
        Google’s rules forbid asking only happy members, or rewarding reviews.
      </p>
      {settings.isPending && <Spinner label="Loading review requests" />}
      {settings.isError && <p role="alert">Could not load the review requests.</p>}
      {settings.data && <ReviewRequestsForm settings={settings.data} />}
    </section>
  );
}

function ReviewRequestsForm({ settings }: { settings: ReviewRequestSettings }) {
  const save = useSaveReviewRequestSettings();
  const { register, handleSubmit, formState } = useForm<ReviewSettingsForm>({
    resolver: zodResolver(reviewSettingsSchema),
    defaultValues: {
      afterClasses: settings.afterClasses === null ? '' : String(settings.afterClasses),
      onceInMonths: String(settings.onceInMonths),
      reviewUrl: settings.reviewUrl,
    },
  });
  const submit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: (saved) =>
        toast.success(saved.afterClasses === null ? 'Review requests are off' : `Review requests after ${saved.afterClasses} classes`),
      onError: (error) => toast.error((error as { message?: string }).message ?? 'Could not save. Please try again.'),
    }),
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-3">
      <TextField
        label="After this many attended classes"
        hint="Blank: no review requests"
        inputMode="numeric"
        error={formState.errors.afterClasses?.message}
        {...register('afterClasses')}
      />
      <TextField
        label="At most once in (months)"
        inputMode="numeric"
        error={formState.errors.onceInMonths?.message}
        {...register('onceInMonths')}
      />
      <TextField
        label="Your review link"
        type="url"
        placeholder="https://g.page/r/…/review"
        error={formState.errors.reviewUrl?.message}
        {...register('reviewUrl')}
      />
      <div className="sm:col-span-3">
        <Button type="submit" loading={save.isPending}>
          Save review requests
        </Button>
      </div>
    </form>
  );
}
