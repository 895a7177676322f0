import { useId, useMemo, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { controlClasses } from '@/components/ui/field';
import { downloadTextFile } from '@/lib/download-file';
import { CSV_MIME_TYPE } from '@/lib/csv/write-csv';
import { toast } from '@/lib/toast';
import { useMembersToInvite, useRunMemberImport, useSendInvitations } from '../api/import-members';
import { CsvReadError, readCsv, type CsvTable } from '../lib/member-import/csv';
import { IMPORT_FIELDS, type ColumnMapping, type ImportFieldKey } from '../lib/member-import/fields';
import { countOutcomes, describeCounts, type ImportRowOutcome } from '../lib/member-import/outcome';
import { findPreset, IMPORT_PRESETS, mappingFor, rememberedMapping, rememberMapping, templateCsv } from '../lib/member-import/presets';
import { toImportRows } from '../lib/member-import/rows';
import { td, th } from './table-styles';

const OUTCOME_LABELS: Record<ImportRowOutcome['outcome'], string> = {
  created: 'New',
  updated: 'Updated',
  unchanged: 'No change',
  refused: 'Refused',
};

/** The file's text as UTF-8 (FileReader: every browser, and the test DOM, has it). */
function readFileText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file, 'utf-8');
  });
}

const errorText = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback);

/**
 * Admin > Import (decision 0065): choose a CSV, map its columns to ours, preview what each row will
 * do (the database's own answer, nothing written), import, and later send the invitations.
 */
export function MemberImportPanel() {
  const [fileName, setFileName] = useState<string | null>(null);
  const [table, setTable] = useState<CsvTable | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [presetId, setPresetId] = useState('template');
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [preview, setPreview] = useState<ImportRowOutcome[] | null>(null);
  const [result, setResult] = useState<ImportRowOutcome[] | null>(null);
  const run = useRunMemberImport();
  const fileId = useId();
  const presetSelectId = useId();
  const preset = findPreset(presetId)!;
  const rows = useMemo(() => (table ? toImportRows(table, mapping, preset.dateOrder) : []), [table, mapping, preset.dateOrder]);

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setPreview(null);
    setResult(null);
    if (!file) return;
    try {
      const read = readCsv(await readFileText(file));
      setTable(read);
      setFileName(file.name);
      setReadError(null);
      setMapping(rememberedMapping(read.headers) ?? mappingFor(read.headers, preset));
    } catch (error) {
      setTable(null);
      setReadError(error instanceof CsvReadError ? error.message : 'This file could not be read as a CSV.');
    }
  }

  function choosePreset(id: string) {
    setPresetId(id);
    setPreview(null);
    if (table) setMapping(mappingFor(table.headers, findPreset(id)));
  }

  function mapColumn(header: string, field: ImportFieldKey | '') {
    setPreview(null);
    setMapping((current) => {
      const next = { ...current };
      // One column per field: choosing a field for this column takes it from any other.
      for (const [h, f] of Object.entries(next)) if (field && f === field) delete next[h];
      if (field) next[header] = field;
      else delete next[header];
      return next;
    });
  }

  function showPreview() {
    if (!table) return;
    rememberMapping(table.headers, mapping);
    run.mutate(
      { rows, commit: false },
      {
        onSuccess: (outcomes) => setPreview(outcomes),
        onError: (error) => toast.error(errorText(error, 'The preview failed. Please try again.')),
      },
    );
  }

  function confirmImport() {
    run.mutate(
      { rows, commit: true },
      {
        onSuccess: (outcomes) => {
          setPreview(null);
          setResult(outcomes);
          toast.success(`Imported: ${describeCounts(countOutcomes(outcomes))}.`);
        },
        onError: (error) => toast.error(errorText(error, 'The import failed: nothing was written. Please try again.')),
      },
    );
  }

  const counts = preview ? countOutcomes(preview) : null;
  const writable = counts ? counts.created + counts.updated : 0;

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">1. Choose the file</h2>
        <p className="mt-1 text-sm text-slate-600">
          A CSV as your spreadsheet or your old platform saves it. Dates as dd/mm/yyyy. A child&apos;s row has no email of its own: put
          their parent&apos;s email in Guardian email. An emergency contact (name and phone) is optional, on an adult&apos;s row.
        </p>
        <div className="mt-4 flex flex-wrap items-end gap-4">
          <div className="space-y-1.5">
            <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
              CSV file
            </label>
            <input id={fileId} type="file" accept=".csv,text/csv" onChange={(e) => void chooseFile(e)} className="block text-sm" />
          </div>
          <div className="space-y-1.5">
            <label htmlFor={presetSelectId} className="block text-sm font-medium text-slate-800">
              Columns from
            </label>
            <select id={presetSelectId} value={presetId} onChange={(e) => choosePreset(e.target.value)} className={controlClasses(false)}>
              {IMPORT_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={() => downloadTextFile(templateCsv(), 'member-import-template.csv', CSV_MIME_TYPE)}>
            Download the template
          </Button>
        </div>
        {readError && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {readError}
          </p>
        )}
      </Card>

      {table && (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">2. Match the columns</h2>
          <p className="mt-1 text-sm text-slate-600">
            {fileName}: {table.records.length} rows. Remembered for files with these columns on this browser.
          </p>
          <div className="mt-4 grid gap-3 sm:grid-cols-2">
            {table.headers.map((header, i) => (
              <ColumnSelect key={`${header}-${i}`} header={header} value={mapping[header] ?? ''} onChange={(f) => mapColumn(header, f)} />
            ))}
          </div>
          <Button className="mt-4" onClick={showPreview} loading={run.isPending && !preview} disabled={rows.length === 0}>
            Preview
          </Button>
        </Card>
      )}

      {preview && counts && (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">3. Check the preview</h2>
          <p role="status" className="mt-1 text-sm text-slate-700">
            Nothing is written yet. {describeCounts(counts)}.
          </p>
          <OutcomeTable caption="Preview" rows={preview} />
          <Button className="mt-4" onClick={confirmImport} loading={run.isPending} disabled={writable === 0}>
            {writable === 0 ? 'Nothing to import' : `Import ${writable} ${writable === 1 ? 'row' : 'rows'}`}
          </Button>
        </Card>
      )}

      {result && (
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Imported</h2>
          <p role="status" className="mt-1 text-sm text-slate-700">
            {describeCounts(countOutcomes(result))}. No email has been sent.
          </p>
          <OutcomeTable caption="Import result" rows={result} />
        </Card>
      )}

      <InvitationsCard />
    </div>
  );
}

function ColumnSelect({ header, value, onChange }: { header: string; value: string; onChange: (field: ImportFieldKey | '') => void }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {header || '(no heading)'}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as ImportFieldKey | '')} className={controlClasses(false)}>
        <option value="">Ignore this column</option>
        {IMPORT_FIELDS.map((f) => (
          <option key={f.key} value={f.key}>
            {f.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Each row's outcome; names are shown as text (React escapes any HTML in them). */
function OutcomeTable({ caption, rows }: { caption: string; rows: readonly ImportRowOutcome[] }) {
  return (
    // Focusable and named: on a phone the table scrolls sideways, and a keyboard must reach it.
    <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label={`${caption}, table`}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>
              Row
            </th>
            <th scope="col" className={th}>
              Who
            </th>
            <th scope="col" className={th}>
              Outcome
            </th>
            <th scope="col" className={th}>
              Details
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.line} className={r.outcome === 'refused' ? 'bg-red-50' : undefined}>
              <td className={td}>{r.line}</td>
              <td className={td}>
                <span className="block whitespace-pre-line font-medium text-slate-900">{r.name ?? '(no name)'}</span>
                <span className="block break-all text-slate-600">
                  {r.kind === 'child' ? `Child of ${r.email ?? '?'}` : (r.email ?? '(no email)')}
                </span>
              </td>
              <td className={td}>{OUTCOME_LABELS[r.outcome]}</td>
              <td className={td}>
                <ul className="list-disc space-y-0.5 pl-4">
                  {(r.outcome === 'refused' ? r.refusals : r.actions).map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InvitationsCard() {
  const waiting = useMembersToInvite();
  const send = useSendInvitations();
  const count = waiting.data?.length ?? 0;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Invitations</h2>
      <p className="mt-1 text-sm text-slate-600">
        Imported members get no email until you send the invitations: each gets a link to set their password and sign in to see their plan,
        next payment date and sessions.
      </p>
      <p role="status" className="mt-2 text-sm text-slate-700">
        {waiting.isPending
          ? 'Checking who is waiting…'
          : count === 0
            ? 'Nobody is waiting for an invitation.'
            : `${count} imported ${count === 1 ? 'member is' : 'members are'} waiting for an invitation.`}
      </p>
      <Button
        className="mt-3"
        disabled={count === 0}
        loading={send.isPending}
        onClick={() =>
          send.mutate(undefined, {
            onSuccess: ({ invited, failed }) => {
              toast.success(`Sent ${invited} ${invited === 1 ? 'invitation' : 'invitations'}.`);
              if (failed.length > 0) toast.error(`Not sent to ${failed.map((f) => `${f.email} (${f.message})`).join(', ')}.`);
            },
            onError: (error) => toast.error(errorText(error, 'The invitations could not be sent. Please try again.')),
          })
        }
      >
        Send invitations
      </Button>
    </Card>
  );
}
