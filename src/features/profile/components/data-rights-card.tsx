import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/auth-context';
import { downloadTextFile } from '@/lib/download-file';
import { londonToday } from '@/lib/studio-calendar';
import { useCloseMyAccount, useDownloadMyData, type MyDataExport } from '../api/data-rights';
import { DATA_EXPORT_SECTIONS } from '../lib/data-export-sections';
import { CLOSE_ACCOUNT_WORDS } from '../lib/data-rights';
import { ReadableData } from './readable-data';

/** Profile > your data: download a copy (a .json file and a readable page), or close the account. */
export function DataRightsCard() {
  const download = useDownloadMyData();
  const close = useCloseMyAccount();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [data, setData] = useState<MyDataExport | null>(null);

  function downloadData() {
    download.mutate(undefined, {
      onSuccess: (result) => {
        downloadTextFile(JSON.stringify(result, null, 2), `my-data-${londonToday()}.json`, 'application/json');
        setData(result);
        toast.success('Your data was downloaded');
      },
      onError: () => toast.error('Could not download your data. Please try again.'),
    });
  }

  function closeAccount() {
    if (!window.confirm(CLOSE_ACCOUNT_WORDS.confirm)) return;
    close.mutate(undefined, {
      onSuccess: () => {
        toast.success('Your account is closed');
        void signOut().finally(() => void navigate(paths.home, { replace: true }));
      },
      onError: (error) => toast.error(error.message),
    });
  }

  return (
    <Card>
      <h2 className="text-lg font-bold text-slate-900">Your data</h2>
      <p className="mt-1 text-sm text-slate-600">Download a copy of everything the studio holds about you, or close your account.</p>
      <div className="mt-3">
        <Button variant="outline" loading={download.isPending} onClick={downloadData}>
          Download my data
        </Button>
      </div>
      {data && (
        <section aria-label="Your data" className="mt-4 space-y-2">
          {DATA_EXPORT_SECTIONS.map(([key, label]) => (
            <details key={key} className="rounded-lg border border-slate-200 p-2 text-sm">
              <summary className="cursor-pointer font-medium">
                {label}
                {Array.isArray(data[key]) ? ` (${(data[key] as unknown[]).length})` : ''}
              </summary>
              <div className="mt-2 break-words text-xs">
                <ReadableData value={data[key]} />
              </div>
            </details>
          ))}
        </section>
      )}
      <h3 className="mt-6 font-semibold text-slate-900">Close my account</h3>
      <p className="mt-1 text-sm text-slate-600">{CLOSE_ACCOUNT_WORDS.deleted}</p>
      <p className="mt-1 text-sm text-slate-600">{CLOSE_ACCOUNT_WORDS.kept}</p>
      <div className="mt-3">
        <Button variant="danger" loading={close.isPending} onClick={closeAccount}>
          Close my account
        </Button>
      </div>
    </Card>
  );
}
