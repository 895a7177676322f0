import { useState } from 'react';
import { HeartHandshake, Mail, NotebookPen } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useErrorToast } from '@/hooks/use-error-toast';
import { CONTACT_REASON_LABELS, useMembersToContact, type MemberToContact } from '../api/members-to-contact';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { ContactMemberDialog } from './contact-member-dialog';
import { EmptyState } from './empty-state';

const LOAD_FAILED = 'Could not load the members to contact';
const day = (iso: string | null) => (iso ? formatInLondon(iso, DATE_FORMATS.date) : '');

/**
 * Members to contact: one card per member and reason, those nobody has contacted first,
 * each with why, since when, the last contact, and Email / Note a call.
 */
export function MembersToContactList() {
  const list = useMembersToContact();
  useErrorToast(list.isError, LOAD_FAILED);
  const [open, setOpen] = useState<{ member: MemberToContact; kind: 'email' | 'note' } | null>(null);

  if (list.isPending) return <Spinner label="Loading members to contact" />;
  if (list.isError)
    return (
      <Card>
        <EmptyState title={LOAD_FAILED} body="Refresh the page to try again." />
      </Card>
    );
  if (list.data.length === 0) {
    return (
      <Card>
        <EmptyState
          icon={<HeartHandshake aria-hidden="true" className="h-6 w-6" />}
          title="Nobody to contact"
          body="No ended trials or memberships, payments due, quieter members or expiring credits right now."
        />
      </Card>
    );
  }
  return (
    <>
      <ul className="space-y-3" aria-label="Members to contact">
        {list.data.map((m) => {
          const who = m.name ?? m.email ?? '';
          return (
            <li key={`${m.member_id}-${m.reason}`}>
              <Card className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                    <span className="break-words">{who}</span>
                    <Badge tone={m.last_contacted_at ? 'neutral' : 'warning'}>{CONTACT_REASON_LABELS[m.reason ?? ''] ?? m.reason}</Badge>
                  </p>
                  <p className="break-all text-sm text-slate-600">{m.email}</p>
                  <p className="mt-1 text-sm text-slate-800">
                    {m.detail} · since {day(m.since)}
                  </p>
                  <p className="mt-1 text-sm text-slate-600">
                    {m.last_contacted_at
                      ? `Contacted ${day(m.last_contacted_at)}${m.last_contacted_by ? ` by ${m.last_contacted_by}` : ''}: ${m.last_note}`
                      : 'Not contacted yet'}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2 sm:shrink-0">
                  <Button size="sm" onClick={() => setOpen({ member: m, kind: 'email' })} aria-label={`Email ${who}`}>
                    <Mail aria-hidden="true" className="h-4 w-4" />
                    Email
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setOpen({ member: m, kind: 'note' })}
                    aria-label={`Note a call with ${who}`}
                  >
                    <NotebookPen aria-hidden="true" className="h-4 w-4" />
                    Note a call
                  </Button>
                </div>
              </Card>
            </li>
          );
        })}
      </ul>
      {open && <ContactMemberDialog member={open.member} kind={open.kind} onClose={() => setOpen(null)} />}
    </>
  );
}
