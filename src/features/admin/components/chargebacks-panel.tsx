import { zodResolver } from '@hookform/resolvers/zod';
import { BadgeCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { formatPounds } from '@/config/plans';
import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { toast } from '@/lib/toast';
import { settleSchema, useChargebacks, useSettleChargeback, type Chargeback, type SettleForm } from '../api/direct-debit-chargebacks';
import { ActionsCell, CardRow, CardTable, FactCell, TitleCell } from './card-table';
import { EmptyState } from './empty-state';
import { PanelSection } from './panel-section';

const COLUMNS = ['Member', 'For', 'Amount', 'Returned', 'Paid back'] as const;

/**
 * "Owed to the studio" (decision 0076): Direct Debits the members' banks took back (charge-backs),
 * open ones first. An admin records each as paid once the member has paid it another way.
 */
export function ChargebacksPanel() {
  const chargebacks = useChargebacks();
  return (
    <PanelSection
      id="chargebacks-heading"
      title="Owed to the studio"
      intro="Direct Debits a member's bank returned after the studio had the money (charge-backs)."
    >
      {chargebacks.isPending && <Spinner label="Loading charge-backs" />}
      {chargebacks.isError && <EmptyState title="Failed to load charge-backs" body="Refresh the page to try again." />}
      {chargebacks.data?.length === 0 && (
        <EmptyState
          title="Nothing owed"
          body="When a bank returns a Direct Debit, what the member owes appears here."
          icon={<BadgeCheck aria-hidden="true" className="h-10 w-10" />}
        />
      )}
      {chargebacks.data && chargebacks.data.length > 0 && (
        <CardTable columns={COLUMNS} from="xl">
          {chargebacks.data.map((c) => (
            <CardRow key={c.id}>
              <TitleCell>
                <div className="font-semibold text-slate-900">{c.memberName || '—'}</div>
              </TitleCell>
              <FactCell label="For" wide>
                {c.description}
              </FactCell>
              <FactCell label="Amount" nowrap className="font-semibold text-slate-900">
                {formatPounds(c.amount)}
              </FactCell>
              <FactCell label="Returned" nowrap>
                {formatInLondon(c.chargedBackAt, DATE_FORMATS.dateTime)}
              </FactCell>
              <ActionsCell>
                {c.settledAt ? (
                  <p className="text-sm text-slate-700">
                    Paid {formatInLondon(c.settledAt, DATE_FORMATS.dateTime)}: {c.settledNote}
                  </p>
                ) : (
                  <SettleChargeback chargeback={c} />
                )}
              </ActionsCell>
            </CardRow>
          ))}
        </CardTable>
      )}
    </PanelSection>
  );
}

function SettleChargeback({ chargeback }: { chargeback: Chargeback }) {
  const settle = useSettleChargeback();
  const { register, handleSubmit, formState } = useForm<SettleForm>({ resolver: zodResolver(settleSchema), defaultValues: { note: '' } });
  const who = chargeback.memberName || 'the member';
  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-2"
      aria-label={`Record ${formatPounds(chargeback.amount)} from ${who} as paid`}
      onSubmit={(event) =>
        void handleSubmit(({ note }) =>
          settle.mutate(
            { id: chargeback.id, note },
            {
              onSuccess: () => toast.success(`Recorded ${formatPounds(chargeback.amount)} from ${who} as paid.`),
              onError: () => toast.error('Could not record the payment, please try again.'),
            },
          ),
        )(event)
      }
    >
      <TextField label="How it was paid" {...register('note')} error={formState.errors.note?.message} />
      <Button type="submit" size="sm" loading={settle.isPending}>
        Record paid
      </Button>
    </form>
  );
}
