import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import {
  reviewSettingsSchema,
  useReviewRequestSettings,
  useSaveReviewRequestSettings,
  type ReviewRequestSettings,
} from '../api/review-requests';
import { SettingsForm } from '@/components/settings/settings-form';

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
  return (
    <SettingsForm
      label="Review requests"
      schema={reviewSettingsSchema}
      values={{
        afterClasses: settings.afterClasses === null ? '' : String(settings.afterClasses),
        onceInMonths: String(settings.onceInMonths),
        reviewUrl: settings.reviewUrl,
      }}
      save={(values) => save.mutateAsync(values)}
      submitLabel="Save review requests"
      savedText={(saved) =>
        saved.afterClasses === null ? 'Review requests are off' : `Review requests after ${saved.afterClasses} classes`
      }
      errorText={(error) => (error as { message?: string }).message ?? 'Could not save. Please try again.'}
      className="rounded-xl border border-slate-200 bg-white p-4"
    >
      {({ field }) => (
        <div className="grid gap-3 sm:grid-cols-3">
          <TextField
            label="After this many attended classes"
            hint="Blank: no review requests"
            inputMode="numeric"
            {...field('afterClasses')}
          />
          <TextField label="At most once in (months)" inputMode="numeric" {...field('onceInMonths')} />
          <TextField label="Your review link" type="url" placeholder="https://g.page/r/…/review" {...field('reviewUrl')} />
        </div>
      )}
    </SettingsForm>
  );
}
