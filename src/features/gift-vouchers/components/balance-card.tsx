import { Link } from 'react-router-dom';
import { Card } from '@/components/ui/card';
import { formatPounds } from '@/config/plans';
import { paths } from '@/config/paths';
import { useMyBalance } from '../api/gift-vouchers';
import { formatLondonDate } from '../lib/dates';

/** The member's balance (the sum of their ledger) and its history, newest first (decision 0101). */
export function BalanceCard() {
  const balance = useMyBalance();
  if (!balance.data) return null;
  const { history } = balance.data;
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="balance-heading">
        <h2 id="balance-heading" className="text-lg font-semibold text-slate-900">
          Your balance: {formatPounds(balance.data.balance)}
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Your balance pays first for packages, classes and memberships (the first month and each renewal); a card or Direct Debit pays the
          rest.{' '}
          <Link className="underline" to={paths.redeem}>
            Redeem a gift voucher
          </Link>
        </p>
        {history.length > 0 && (
          <table className="mt-4 w-full text-left text-sm">
            <caption className="sr-only">Balance history</caption>
            <thead>
              <tr className="text-slate-600">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Date
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  What
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {history.map((line) => (
                <tr key={line.id} className="border-t border-slate-100">
                  <td className="py-1 pr-2 whitespace-nowrap">{formatLondonDate(line.createdAt)}</td>
                  <td className="py-1 pr-2">{line.description}</td>
                  <td className="py-1 text-right whitespace-nowrap">
                    {line.amount > 0 ? '+' : '−'}
                    {formatPounds(Math.abs(line.amount))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Card>
  );
}
