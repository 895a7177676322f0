import { useState } from 'react';
import { toast } from '@/lib/toast';
import { CheckCircle2, Inbox, Mail, RotateCcw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Spinner } from '@/components/ui/spinner';
import {
  useContactMessages,
  useMarkContactMessageHandled,
  type ContactMessage,
  type ContactMessageFilter,
} from '../api/get-contact-messages';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { EmptyState } from './empty-state';
import { TablePanel } from './table-panel';

const CONTACT_MESSAGES_TEXT = {
  loadFailed: 'Could not load the messages',
  handled: 'Message marked as handled',
  reopened: 'Message marked as not handled',
  updateFailed: 'Could not update the message. Please try again.',
} as const;

const FILTERS: Array<{ value: ContactMessageFilter; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'all', label: 'All' },
];

const when = (iso: string) => formatInLondon(iso, DATE_FORMATS.dateTime);

/** What visitors sent through Contact Us, newest first; open ones until someone marks them handled. */
export function ContactMessagesList() {
  const [filter, setFilter] = useState<ContactMessageFilter>('open');
  const messages = useContactMessages(filter);
  const mark = useMarkContactMessageHandled();

  function setHandled(message: ContactMessage, handled: boolean) {
    mark.mutate(
      { id: message.id, handled },
      {
        onSuccess: () => toast.success(handled ? CONTACT_MESSAGES_TEXT.handled : CONTACT_MESSAGES_TEXT.reopened),
        onError: () => toast.error(CONTACT_MESSAGES_TEXT.updateFailed),
      },
    );
  }

  return (
    <section aria-labelledby="contact-messages-heading">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="contact-messages-heading" className="text-xl font-bold text-slate-900">
          Contact Us messages
        </h2>
        <div role="group" aria-label="Show" className="inline-flex rounded-lg border border-slate-200 bg-white p-1">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              aria-pressed={filter === f.value}
              onClick={() => setFilter(f.value)}
              className={cn(
                'min-h-9 rounded-md px-3 text-sm font-medium',
                filter === f.value ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {f.label}
            </button>
          ))}
        </div>
      </div>
      <TablePanel>
        {messages.isPending && <Spinner label="Loading messages" />}
        {messages.isError && <EmptyState title={CONTACT_MESSAGES_TEXT.loadFailed} body="Refresh the page to try again." />}
        {messages.data?.length === 0 && (
          <EmptyState
            title={filter === 'open' ? 'No open messages' : 'No messages yet'}
            body="Messages sent with the Contact Us form on the membership page appear here, and are emailed to the studio too."
            icon={<Inbox aria-hidden="true" className="h-10 w-10" />}
          />
        )}
        {messages.data && messages.data.length > 0 && (
          <ul className="divide-y divide-slate-100">
            {messages.data.map((m) => (
              <li key={m.id} className="p-4 sm:p-6">
                <article aria-labelledby={`message-${m.id}`}>
                  <header className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 id={`message-${m.id}`} className="font-semibold text-slate-900">
                      {m.name}
                    </h3>
                    <p className="text-xs text-slate-500">{when(m.createdAt)}</p>
                  </header>
                  {m.topic && <p className="text-sm text-slate-500">About: {m.topic}</p>}
                  <p className="mt-1 text-sm text-slate-600">
                    <a className="font-medium text-brand-700 underline" href={`mailto:${m.email}`}>
                      {m.email}
                    </a>
                    {m.phone && <> · {m.phone}</>}
                  </p>
                  <p className="mt-3 whitespace-pre-wrap break-words text-slate-800">{m.message}</p>
                  <div className="mt-4 flex flex-wrap items-center gap-3">
                    <a
                      className="inline-flex min-h-9 items-center gap-2 rounded-lg border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-50"
                      href={`mailto:${m.email}?subject=${encodeURIComponent(`Re: your message to the studio`)}`}
                    >
                      <Mail aria-hidden="true" className="h-4 w-4" />
                      Reply by email
                    </a>
                    {m.handledAt ? (
                      <>
                        <span className="inline-flex items-center gap-1 text-sm text-green-700">
                          <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
                          Handled {when(m.handledAt)}
                        </span>
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={mark.isPending}
                          aria-label={`Mark the message from ${m.name} as not handled`}
                          onClick={() => setHandled(m, false)}
                        >
                          <RotateCcw aria-hidden="true" className="h-4 w-4" />
                          Not handled
                        </Button>
                      </>
                    ) : (
                      <Button
                        size="sm"
                        disabled={mark.isPending}
                        aria-label={`Mark the message from ${m.name} as handled`}
                        onClick={() => setHandled(m, true)}
                      >
                        <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
                        Mark handled
                      </Button>
                    )}
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </TablePanel>
    </section>
  );
}
