import { useState, type ReactNode } from 'react';
import { MessageSquare } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { Tabs } from '@/components/ui/tabs';
import { plansInCategory, type Plan, type PlanCategory } from '@/config/plans';
import { ContactUsModal } from '../catalogue/contact-us-modal';
import { PlanCard } from './plan-card';

type PlanCatalogueProps = {
  /**
   * The action under each plan (e.g. a buy button for signed-in members, a sign-in link for
   * visitors). Plans that need proof of eligibility always get Contact Us instead.
   */
  renderPlanAction?: (plan: Plan) => ReactNode;
};

/** The plan catalogue of /membership (spec sections 2 and 9): tabs Memberships and Training Packages. */
export function PlanCatalogue({ renderPlanAction }: PlanCatalogueProps) {
  const [tab, setTab] = useState<PlanCategory>('membership');
  const [contact, setContact] = useState<{ topic: string | null } | null>(null);

  const grid = (category: PlanCategory) => {
    const plans = plansInCategory(category);
    return (
      <ul className={plans.length === 3 ? 'grid gap-6 md:grid-cols-3' : 'grid gap-6 md:mx-auto md:max-w-3xl md:grid-cols-2'}>
        {plans.map((plan) => (
          <li key={plan.slug}>
            <PlanCard
              plan={plan}
              action={
                plan.requiresProof ? (
                  <Button
                    variant={plan.highlighted ? 'inverse' : 'secondary'}
                    className="w-full"
                    onClick={() => setContact({ topic: plan.name })}
                  >
                    Contact Us
                  </Button>
                ) : (
                  renderPlanAction?.(plan)
                )
              }
            />
          </li>
        ))}
      </ul>
    );
  };

  return (
    <section aria-labelledby="plans-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h2 id="plans-heading" className="text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">
        Plans and prices
      </h2>
      <Tabs
        label="Plan types"
        className="mt-6"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'membership', label: 'Memberships', panel: grid('membership') },
          { id: 'training', label: 'Training Packages', panel: grid('training') },
        ]}
      />
      <div className="mt-12 flex flex-col items-start gap-4 rounded-3xl bg-slate-50 p-6 ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between sm:p-8">
        <div>
          <h3 className="text-lg font-bold text-slate-900">Not sure which plan fits?</h3>
          <p className="mt-1 text-sm text-slate-600">Ask us about plans, discounts or personal training and we'll help you choose.</p>
        </div>
        <Button variant="outline" onClick={() => setContact({ topic: null })}>
          <MessageSquare aria-hidden="true" className="h-4 w-4" />
          Contact Us
        </Button>
      </div>
      {/* Gift vouchers (decision 0100): anyone buys one, signed in or not. */}
      <div className="mt-6 flex flex-col items-start gap-4 rounded-3xl bg-slate-50 p-6 ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between sm:p-8">
        <div>
          <h3 className="text-lg font-bold text-slate-900">Give classes as a gift</h3>
          <p className="mt-1 text-sm text-slate-600">
            A gift voucher for an amount or a package, emailed with your message on the day you choose.
          </p>
        </div>
        <Link to={paths.giftVouchers} className={buttonClasses({ variant: 'outline' })}>
          Buy a gift voucher
        </Link>
      </div>
      <ContactUsModal open={contact !== null} topic={contact?.topic ?? null} onClose={() => setContact(null)} />
    </section>
  );
}
