import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { buttonClasses } from '@/components/ui/button-styles';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatClassDateTime } from '@/lib/studio-time';
import { usePaymentStatus, type PaymentStatus } from '../api/payment-status';
import { paths } from '@/config/paths';
import { PAYMENT_MESSAGES as M } from '../lib/payment-messages';

/**
 * Where the card provider sends the member back (/payment/return?ref=<checkout reference>). What
 * it shows comes from the database (see usePaymentStatus), not from the URL.
 */
export function PaymentResult({ reference }: { reference: string }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16">
      {reference ? <PaymentOutcome reference={reference} /> : <Message title={M.notFound} />}
    </section>
  );
}

function PaymentOutcome({ reference }: { reference: string }) {
  const { check, polling, checkAgain } = usePaymentStatus(reference);

  if (!check) return <Spinner label={M.checking} />;
  if (check.state === 'signed_out') {
    return (
      <Message title={M.signInFirst}>
        <Link to={paths.signIn.path} className={buttonClasses()}>
          Sign In
        </Link>
      </Message>
    );
  }
  if (check.state === 'not_found') return <Message title={M.notFound} />;
  if (check.state === 'error') {
    return (
      <Message title={M.error}>
        <Button onClick={checkAgain}>{M.checkAgain}</Button>
      </Message>
    );
  }

  const { payment } = check;
  if (payment.status === 'paid') return <Paid payment={payment} />;
  if (payment.status === 'pending') {
    return (
      <Message title={M.pendingTitle} text={polling ? M.pending : M.stillPending}>
        {polling ? <Spinner label={M.checking} className="py-4" /> : <Button onClick={checkAgain}>{M.checkAgain}</Button>}
      </Message>
    );
  }
  const isClass = payment.kind === 'class';
  return (
    <Message title={M.failedTitle} text={isClass ? `${M.failed} ${M.spotReleased}` : M.failed}>
      <Link to={isClass ? paths.schedule : paths.membership} className={buttonClasses()}>
        {isClass ? M.toSchedule : M.toMembership}
      </Link>
    </Message>
  );
}

function Paid({ payment }: { payment: PaymentStatus }) {
  if (payment.kind === 'class') {
    const text = payment.needsRefund
      ? M.paidNeedsRefund
      : M.paidClass(
          payment.className ?? 'your class',
          payment.classStartTime ? formatClassDateTime(payment.classStartTime) : 'the booked date',
        );
    return (
      <Message title={M.paidTitle} text={text}>
        <Link to={paths.myBookings} className={buttonClasses()}>
          {M.toBookings}
        </Link>
      </Message>
    );
  }
  return (
    <Message title={M.paidTitle} text={M.paidPlan(payment.planName ?? 'plan')}>
      <Link to={paths.dashboard} className={buttonClasses()}>
        {M.toDashboard}
      </Link>
    </Message>
  );
}

function Message({ title, text, children }: { title: string; text?: string; children?: ReactNode }) {
  return (
    <Card className="text-center" aria-live="polite">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      {text && <p className="mt-3 text-slate-600">{text}</p>}
      {children && <div className="mt-6 flex justify-center">{children}</div>}
    </Card>
  );
}
