import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { History } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { controlClasses, Field, TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useErrorToast } from '@/hooks/use-error-toast';
import { formatInLondon } from '@/lib/studio-calendar';
import {
  activityFilterSchema,
  getActivityPage,
  NO_ACTIVITY_FILTERS,
  useActivityPage,
  type ActivityEvent,
  type ActivityFilters,
} from '../api/get-activity';
import { ACTIVITY_CSV_COLUMNS, ACTIVITY_KINDS, ACTIVITY_TIME_FORMAT, actionWord, changeLines, kindLabel } from '../lib/activity';
import { ADMIN_MESSAGES } from '../lib/messages';
import type { PageLoader } from '../lib/paging';
import { CardRow, CardTable, FactCell, TitleCell } from './card-table';
import { EmptyState } from './empty-state';
import { ExportCsvButton } from './export-csv-button';
import { ListFooter } from './list-footer';
import { PageHeading } from './page-heading';
import { TablePanel } from './table-panel';

const COLUMNS = ['When', 'Who', 'What', 'Member or class', 'Change'] as const;

/**
 * Admin > Activity (decision 0045): every change an admin or coach made, newest first, filtered
 * and paged on the server, exported as CSV with the same filters.
 */
export function ActivityList() {
  const [filters, setFilters] = useState<ActivityFilters>(NO_ACTIVITY_FILTERS);
  const [page, setPage] = useState(0);
  const list = useActivityPage(page, filters);
  useErrorToast(list.isError, ADMIN_MESSAGES.activityLoadFailed);
  const { register, handleSubmit, reset, formState } = useForm<ActivityFilters>({
    resolver: zodResolver(activityFilterSchema),
    defaultValues: NO_ACTIVITY_FILTERS,
  });
  const apply = handleSubmit((values) => {
    setFilters(values);
    setPage(0);
  });
  // The export reads the same filtered query as the list, a large page at a time.
  const load: PageLoader<ActivityEvent> = (p, _search, size) => getActivityPage(p, filters, size);

  const filtered = Object.values(filters).some(Boolean);
  const shown = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const state = list.isPending ? 'loading' : list.isError ? 'error' : 'ready';

  return (
    <section>
      <PageHeading
        title="Activity"
        subtitle="Every change an admin or coach made: who, when, and what it was before and after."
        action={<ExportCsvButton load={load} search="" columns={ACTIVITY_CSV_COLUMNS} noun="activity" />}
      />
      <form
        noValidate
        aria-label="Filter activity"
        onSubmit={(e) => void apply(e)}
        className="mb-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end"
      >
        <TextField label="Who" placeholder="Admin or coach name" {...register('who')} error={formState.errors.who?.message} />
        <Field label="Kind" error={formState.errors.kind?.message}>
          {(control) => (
            <select {...control} className={controlClasses(!!formState.errors.kind)} {...register('kind')}>
              <option value="">All kinds</option>
              {ACTIVITY_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {kindLabel(kind)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField label="Member or class" placeholder="Name" {...register('subject')} error={formState.errors.subject?.message} />
        <TextField label="From" type="date" {...register('from')} error={formState.errors.from?.message} />
        <TextField label="To" type="date" {...register('to')} error={formState.errors.to?.message} />
        <div className="flex gap-2">
          <Button type="submit">Filter</Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              reset(NO_ACTIVITY_FILTERS);
              setFilters(NO_ACTIVITY_FILTERS);
              setPage(0);
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      <TablePanel>
        {state === 'loading' && <Spinner label="Loading activity" />}
        {state === 'error' && <EmptyState title={ADMIN_MESSAGES.activityLoadFailed} body="Refresh the page to try again." />}
        {state === 'ready' && shown.length === 0 && (
          <EmptyState
            title={filtered ? 'No activity matches these filters' : 'No activity yet'}
            body={filtered ? 'Try other filters.' : 'Changes made by admins and coaches will appear here.'}
            icon={<History aria-hidden="true" className="h-10 w-10" />}
          />
        )}
        {shown.length > 0 && (
          <CardTable columns={COLUMNS} from="xl">
            {shown.map((e) => (
              <CardRow key={e.id}>
                <TitleCell>
                  <div className="font-semibold text-slate-900">{formatInLondon(e.at, ACTIVITY_TIME_FORMAT)}</div>
                </TitleCell>
                <FactCell label="Who">
                  {e.actor_name} <span className="text-xs text-slate-500">({e.actor_role})</span>
                </FactCell>
                <FactCell label="What">
                  {actionWord(e.action)} · {kindLabel(e.kind)}
                </FactCell>
                <FactCell label="Member or class">{e.subject ?? '—'}</FactCell>
                <FactCell label="Change" wide>
                  <ul className="max-w-md space-y-0.5 break-words font-mono text-xs text-slate-700">
                    {changeLines(e).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </FactCell>
              </CardRow>
            ))}
          </CardTable>
        )}
        {state === 'ready' && total > 0 && <ListFooter shown={shown.length} total={total} noun="changes" page={page} onPage={setPage} />}
      </TablePanel>
    </section>
  );
}
