import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { controlClasses, Field, TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { PLANS } from '@/config/plans';
import { putOnPlanSchema, usePutMemberOnPlan, type PutOnPlanForm } from '../api/put-member-on-plan';
import type { AdminMember } from '../api/get-members';
import { placementMessage } from '../lib/plan-placement';

/**
 * Put a member on a plan at a price (decision 0009), e.g. a student price after the studio checked
 * proof: without a running plan it applies now and its first month is charged by the next renewal
 * run (or the member is asked to add a card); a running plan changes at its period end. It then
 * renews like any other. The database decides which, and refuses a past-due plan.
 */
export function PutOnPlanDialog({ member, onClose }: { member: AdminMember; onClose: () => void }) {
  const put = usePutMemberOnPlan();
  const { register, handleSubmit, formState } = useForm<PutOnPlanForm>({
    resolver: zodResolver(putOnPlanSchema),
    defaultValues: { planSlug: 'standard', price: PLANS.standard.pricePence / 100 },
  });
  const who = member.name || member.email;
  const submit = handleSubmit((values) => {
    put.mutate(
      { memberId: member.id, input: values },
      {
        onSuccess: (placed) => {
          toast.success(placementMessage(who, values.planSlug, placed));
          onClose();
        },
        onError: (error) => toast.error(error.message),
      },
    );
  });
  return (
    <Modal
      open
      onClose={onClose}
      title={`Put ${who} on a plan`}
      description="For prices the studio sets itself, such as student and Hackney worker prices."
    >
      <form noValidate aria-label="Put on plan" onSubmit={(e) => void submit(e)} className="space-y-4">
        <Field label="Plan" error={formState.errors.planSlug?.message}>
          {(control) => (
            <select {...control} className={controlClasses(!!formState.errors.planSlug)} {...register('planSlug')}>
              <option value="standard">{PLANS.standard.name}</option>
              <option value="platinum">{PLANS.platinum.name}</option>
            </select>
          )}
        </Field>
        <TextField
          label="Monthly price (£)"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          required
          error={formState.errors.price?.message}
          {...register('price')}
        />
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={put.isPending}>
            Put on plan
          </Button>
        </div>
      </form>
    </Modal>
  );
}
