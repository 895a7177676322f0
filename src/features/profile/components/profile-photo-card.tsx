import { useRef, useState, type ChangeEvent } from 'react';
import { toast } from '@/lib/toast';
import { Camera } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { initials } from '@/lib/initials';
import type { Member } from '@/lib/supabase';
import { checkAvatarFile, useUploadAvatar } from '../api/upload-avatar';
import { AVATAR_TYPES, PROFILE_MESSAGES } from '../lib/profile-rules';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}

/** Choosing a photo checks it, previews it and uploads it straight away, replacing the old one. */
export function ProfilePhotoCard({ member, onUploaded }: { member: Member; onUploaded: (url: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const uploadAvatar = useUploadAvatar();
  const uploading = uploadAvatar.isPending;
  const shown = preview ?? member.profile_image_url;

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again still fires change
    if (!file) return;
    // The same check the upload makes (type, size, and the content's own signature): a file input
    // is not a react-hook-form field, so it is checked here.
    const checked = await checkAvatarFile(file);
    const problem = 'problem' in checked ? checked.problem : null;
    setError(problem);
    if (problem) {
      toast.error(problem);
      return;
    }
    try {
      setPreview(await readAsDataUrl(file));
      const url = await uploadAvatar.mutateAsync({ memberId: member.id, file });
      toast.success(PROFILE_MESSAGES.photoUpdated);
      onUploaded(url);
    } catch {
      setPreview(null);
      toast.error(PROFILE_MESSAGES.photoFailed);
    }
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold">Profile Photo</h2>
      <div className="mt-4 flex flex-col items-center gap-4 text-center">
        {shown ? (
          <img src={shown} alt="Profile photo" className="h-28 w-28 rounded-full object-cover ring-4 ring-brand-100" />
        ) : (
          <span
            aria-hidden="true"
            className="flex h-28 w-28 items-center justify-center rounded-full bg-brand-100 text-3xl font-bold text-brand-800"
          >
            {initials(member.name, member.email)}
          </span>
        )}
        <input
          ref={input}
          id="profile-photo-input"
          type="file"
          accept={AVATAR_TYPES.join(',')}
          className="sr-only"
          aria-label="Choose a profile photo"
          aria-describedby="profile-photo-hint"
          onChange={(e) => void onChange(e)}
        />
        <Button variant="outline" loading={uploading} onClick={() => input.current?.click()}>
          {!uploading && <Camera aria-hidden="true" className="h-4 w-4" />}
          {uploading ? 'Uploading...' : 'Change Photo'}
        </Button>
        <p id="profile-photo-hint" className="text-sm text-slate-500">
          JPG, PNG or GIF, less than 5MB
        </p>
        {error && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        )}
      </div>
    </Card>
  );
}
