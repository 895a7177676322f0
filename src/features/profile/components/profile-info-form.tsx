import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextField } from '@/components/ui/field';
import type { Member } from '@/lib/supabase';
import { updateProfile } from '../api/update-profile';
import { nameError, PROFILE_MESSAGES } from '../lib/profile-rules';

/** Name (required), phone (optional), email (read-only: it is the sign-in identity). */
export function ProfileInfoForm({ member, onSaved }: { member: Member; onSaved: () => void }) {
  const [name, setName] = useState(member.name ?? '');
  const [phone, setPhone] = useState(member.phone ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = nameError(name);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await updateProfile(member.id, { name, phone });
      toast.success(PROFILE_MESSAGES.profileUpdated);
      onSaved();
    } catch {
      toast.error(PROFILE_MESSAGES.profileFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold">Profile Information</h2>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-4 space-y-4">
        <TextField label="Full Name" name="name" autoComplete="name" required value={name} error={error} onChange={(e) => setName(e.target.value)} />
        <TextField label="Phone" name="phone" type="tel" autoComplete="tel" optional value={phone} onChange={(e) => setPhone(e.target.value)} />
        <TextField label="Email" name="email" type="email" value={member.email} readOnly disabled hint="Your email is your sign-in and cannot be changed here." />
        <Button type="submit" loading={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </form>
    </Card>
  );
}
