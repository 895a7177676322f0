import { PageHeading } from '@/features/admin/components/page-heading';
import { PanelSection } from '@/features/admin/components/panel-section';
import { GiftVoucherSettings } from '@/features/gift-vouchers/components/gift-voucher-settings';
import { GiftVouchersAdmin } from '@/features/gift-vouchers/components/gift-vouchers-admin';
import { MoneyHeldCard } from '@/features/admin/components/money-held-card';

/** /admin/gift-vouchers: vouchers sold, delivered, redeemed and expired; money held; the rules (decisions 0100, 0101). */
export function AdminGiftVouchersRoute() {
  return (
    <>
      <PageHeading title="Gift vouchers" subtitle="Vouchers sold, delivered, redeemed and expired, and the money held for members." />
      <div className="mb-6 max-w-md">
        <MoneyHeldCard />
      </div>
      <GiftVouchersAdmin />
      <PanelSection id="gift-voucher-settings" title="Gift voucher settings">
        <GiftVoucherSettings />
      </PanelSection>
    </>
  );
}
