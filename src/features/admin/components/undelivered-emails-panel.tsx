import { toast } from '@/lib/toast';
import { MailCheck, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useRetryEmail, useUndeliveredEmails } from '../api/get-undelivered-emails';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { EmptyState } from './empty-state';
import { ActionsCell, CardRow, CardTable, FactCell, TitleCell } from './card-table';
import { PanelSection } from './panel-section';

/** How each channel is named on its Retry button and in the list. */
const CHANNEL_NAME = { email: 'email', push: 'push notification', sms: 'text' } as const;
const CHANNEL_LABEL = { email: 'Email', push: 'Push notification', sms: 'Text' } as const;

const UNDELIVERED_TEXT = {
  loadFailed: 'Could not load the undelivered emails',
  retried: 'The email will be sent again within a minute',
  retryFailed: 'Could not queue the email again. Please try again.',
} as const;

/** A table from 1024 px; below, each email is a card with Retry in full view. */
const UNDELIVERED_COLUMNS = ['Email', 'To', 'Last error', 'Failed', 'Actions'] as const;

/** Emails the sender gave up on after its retries, with the mail server's last answer, and Retry. */
export function UndeliveredEmailsPanel() {
  const emails = useUndeliveredEmails();
  const retry = useRetryEmail();

  return (
    <PanelSection
      id="undelivered-heading"
      title="Undelivered emails"
      intro="Emails, push notifications and texts refused 6 times over about half an hour. Fix the cause (often the address or number), then retry."
    >
      {emails.isPending && <Spinner label="Loading undelivered emails" />}
      {emails.isError && <EmptyState title={UNDELIVERED_TEXT.loadFailed} body="Refresh the page to try again." />}
      {emails.data?.length === 0 && (
        <EmptyState
          title="Every email was delivered"
          body="Emails that still fail after their retries appear here with the error."
          icon={<MailCheck aria-hidden="true" className="h-10 w-10" />}
        />
      )}
      {emails.data && emails.data.length > 0 && (
        <CardTable columns={UNDELIVERED_COLUMNS}>
          {emails.data.map((e) => (
            <CardRow key={e.id}>
              <TitleCell>
                <div className="font-semibold text-slate-900">{e.subject}</div>
                <div className="text-xs text-slate-500">
                  {CHANNEL_LABEL[e.channel]}, {e.attempts} attempts
                </div>
              </TitleCell>
              <FactCell label="To" wide className="lg:break-all">
                {e.toEmail}
              </FactCell>
              <FactCell label="Last error" wide className="font-mono text-xs text-red-800 lg:max-w-xs lg:break-words">
                {e.lastError}
              </FactCell>
              <FactCell label="Failed" nowrap>
                {formatInLondon(e.failedAt, DATE_FORMATS.dateTime)}
              </FactCell>
              <ActionsCell>
                <Button
                  size="sm"
                  variant="outline"
                  loading={retry.isPending && retry.variables === e.id}
                  disabled={retry.isPending}
                  aria-label={`Retry the ${CHANNEL_NAME[e.channel]} to ${e.toEmail}: ${e.subject}`}
                  onClick={() =>
                    retry.mutate(e.id, {
                      onSuccess: () => toast.success(UNDELIVERED_TEXT.retried),
                      onError: () => toast.error(UNDELIVERED_TEXT.retryFailed),
                    })
                  }
                >
                  <RefreshCw aria-hidden="true" className="h-4 w-4" />
                  Retry
                </Button>
              </ActionsCell>
            </CardRow>
          ))}
        </CardTable>
      )}
    </PanelSection>
  );
}
