import { useSearchParams } from 'react-router-dom';
import { BalanceCard } from '@/features/gift-vouchers/components/balance-card';
import { BuyGiftVoucher } from '@/features/gift-vouchers/components/buy-gift-voucher-form';
import { GiftVoucherReturn } from '@/features/gift-vouchers/components/gift-voucher-return';
import { RedeemGiftVoucher } from '@/features/gift-vouchers/components/redeem-gift-voucher';

function Page({ title, intro, children }: { title: string; intro: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl space-y-6 px-4 py-8 sm:py-12">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-2 text-slate-700">{intro}</p>
      </header>
      {children}
    </div>
  );
}

/** /gift-vouchers: anyone buys a gift voucher (decision 0100). */
export function GiftVouchersRoute() {
  return (
    <Page
      title="Gift vouchers"
      intro="Give someone classes, a package or a membership at the studio: we email them a code on the day you choose."
    >
      <BuyGiftVoucher />
    </Page>
  );
}

/** /gift-vouchers/return?ref=…: the voucher payment's outcome, read from the database. */
export function GiftVoucherReturnRoute() {
  const [params] = useSearchParams();
  return (
    <Page title="Gift voucher" intro="Your card payment.">
      <GiftVoucherReturn reference={params.get('ref') ?? ''} />
    </Page>
  );
}

/** /redeem?code=…: a signed-in member adds a gift voucher to their balance. */
export function RedeemRoute() {
  const [params] = useSearchParams();
  return (
    <Page title="Redeem a gift voucher" intro="Type the code from your gift voucher email: its amount goes into your balance.">
      <RedeemGiftVoucher initialCode={params.get('code') ?? ''} />
      <BalanceCard />
    </Page>
  );
}
