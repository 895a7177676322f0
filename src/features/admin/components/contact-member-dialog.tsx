import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/lib/toast';
import { useContactMember, type MemberToContact } from '../api/members-to-contact';
import { greeting } from '@/lib/greeting';

const emailSchema = z.object({
  subject: z.string().trim().min(1, 'Write a subject').max(200, 'At most 200 characters'),
  message: z.string().trim().min(1, 'Write a message').max(5000, 'At most 5000 characters'),
});
const noteSchema = z.object({ note: z.string().trim().min(1, 'Write what was said').max(1000, 'At most 1000 characters') });

/** A first draft for each reason, in the studio's voice; the admin edits it before sending. */
const DRAFTS: Record<string, { subject: string; message: string }> = {
  trial_ended: {
    subject: 'Your free trial has ended',
    message:
      'Your free trial ended before you booked your free class.\n\nIf you would still like to try a class, reply to this email and we will help you find one that suits you.',
  },
  free_class_taken: {
    subject: 'How was your free class?',
    message:
      'We hope you enjoyed your free class with us.\n\nIf you would like to keep training, a membership gives you classes every week. Reply to this email with any questions.',
  },
  free_class_missed: {
    subject: 'We missed you at your free class',
    message:
      'We are sorry we did not see you at your free class.\n\nIf the time did not work out, reply and tell us what would suit you better.',
  },
  membership_lapsed: {
    subject: 'Your membership has ended',
    message:
      'We could not take your membership payment, so your membership has ended.\n\nIf you would like to come back, you can choose a plan again from your membership page, or reply and we will help.',
  },
  membership_cancelled: {
    subject: 'We miss you',
    message:
      'Your membership has ended and we miss seeing you at the studio.\n\nIf anything could be better, reply and tell us: we read every message.',
  },
  past_due: {
    subject: 'Your membership payment',
    message:
      'We could not take your last membership payment.\n\nYou can update your card from your membership page. Reply if you need a hand.',
  },
  attendance_dropped: {
    subject: 'See you soon?',
    message: 'We have not seen you as often lately.\n\nIs there a time that would suit you better? Reply and let us know.',
  },
  credits_expiring: {
    subject: 'Your sessions expire soon',
    message: 'Some of your sessions or passes expire soon.\n\nBook them from the schedule before they run out.',
  },
};

type Props = { member: MemberToContact; kind: 'email' | 'note'; onClose: () => void };

function EmailForm({ member, onClose }: Omit<Props, 'kind'>) {
  const contact = useContactMember();
  const draft = DRAFTS[member.reason ?? ''] ?? { subject: '', message: '' };
  const { register, handleSubmit, formState } = useForm<z.input<typeof emailSchema>>({
    resolver: zodResolver(emailSchema),
    defaultValues: draft,
  });
  const submit = handleSubmit(async (values) => {
    try {
      await contact.mutateAsync({ memberId: member.member_id!, reason: member.reason!, kind: 'email', ...values });
      toast.success(`Email to ${member.name ?? member.email} queued`);
      onClose();
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : 'Could not send the email. Please try again.');
    }
  });
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextField label="Subject" required {...register('subject')} error={formState.errors.subject?.message} />
      <TextAreaField
        label="Message"
        rows={7}
        required
        {...register('message')}
        error={formState.errors.message?.message}
        hint={`Starts "${greeting(member.name)}". Replies come to the studio's address.`}
      />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          Back
        </Button>
        <Button type="submit" loading={contact.isPending}>
          Send email
        </Button>
      </div>
    </form>
  );
}

function NoteForm({ member, onClose }: Omit<Props, 'kind'>) {
  const contact = useContactMember();
  const { register, handleSubmit, formState } = useForm<z.input<typeof noteSchema>>({
    resolver: zodResolver(noteSchema),
    defaultValues: { note: '' },
  });
  const submit = handleSubmit(async ({ note }) => {
    try {
      await contact.mutateAsync({ memberId: member.member_id!, reason: member.reason!, kind: 'note', note });
      toast.success('Contact noted');
      onClose();
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : 'Could not save the note. Please try again.');
    }
  });
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextAreaField label="What was said" rows={4} required {...register('note')} error={formState.errors.note?.message} />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose}>
          Back
        </Button>
        <Button type="submit" loading={contact.isPending}>
          Save note
        </Button>
      </div>
    </form>
  );
}

/** Email a member on the contact list, or note a call with them; either is remembered on the list. */
export function ContactMemberDialog({ member, kind, onClose }: Props) {
  const who = member.name ?? member.email ?? 'this member';
  return (
    <Modal
      open
      onClose={onClose}
      title={kind === 'email' ? `Email ${who}` : `Note a call with ${who}`}
      description={member.detail ?? undefined}
    >
      {kind === 'email' ? <EmailForm member={member} onClose={onClose} /> : <NoteForm member={member} onClose={onClose} />}
    </Modal>
  );
}
