import { useState } from 'react';
import { formatPounds } from '@/config/plans';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useAdminReports, type AttendanceRow, type MrrRow, type RevenueRow, type TrialRow } from '../api/get-report';
import { CHART_COLOURS, type ChartSpec } from '../lib/report-chart-spec';
import {
  currentMonthRange,
  formatPercent,
  monthLabel,
  REVENUE_LINE_LABELS,
  REVENUE_MEMO_LINES,
  type ReportRange,
} from '../lib/report-range';
import { ADMIN_MESSAGES } from '../lib/messages';
import { FillHeatMap } from './fill-heat-map';
import { MoneyHeldCard } from './money-held-card';
import { ReportBlock } from './report-block';
import { ReportChart } from './report-chart';
import { ReportRangePicker } from './report-range-picker';
import { ReportTable, type ReportColumn } from './report-table';
import { StatCard } from './stat-card';

const money = (n: number | null) => formatPounds(n ?? 0);
const period = (row: { month: string | null }) => (row.month ? monthLabel(row.month) : 'Whole period');
const csvPeriod = (row: { month: string | null }) => row.month?.slice(0, 7) ?? 'total';
const months = <R extends { month: string | null }>(rows: readonly R[]) => rows.filter((r) => r.month !== null);
const total = <R extends { month: string | null }>(rows: readonly R[]) => rows.find((r) => r.month === null);

const REVENUE_COLUMNS: readonly ReportColumn<RevenueRow>[] = [
  { header: 'Month', show: period, csv: csvPeriod },
  { header: 'Product line', show: (r) => REVENUE_LINE_LABELS[r.line ?? ''] ?? r.line, csv: (r) => r.line },
  { header: 'Payments', show: (r) => r.payments, csv: (r) => r.payments },
  { header: 'Paid', show: (r) => money(r.gross), csv: (r) => r.gross },
  { header: 'Refunded', show: (r) => money(r.refunded), csv: (r) => r.refunded },
  { header: 'Net', show: (r) => <strong>{money(r.net)}</strong>, csv: (r) => r.net },
];

function revenueChart(rows: readonly RevenueRow[]): ChartSpec {
  const perMonth = months(rows);
  const labels = [...new Set(perMonth.map((r) => r.month ?? ''))];
  return {
    labels: labels.map(monthLabel),
    stacked: true,
    formatValue: (v) => formatPounds(v),
    series: Object.entries(REVENUE_LINE_LABELS)
      .filter(([line]) => !REVENUE_MEMO_LINES.has(line))
      .map(([line, name], i) => ({
        name,
        colour: CHART_COLOURS[i % CHART_COLOURS.length]!,
        values: labels.map((m) => perMonth.find((r) => r.month === m && r.line === line)?.net ?? 0),
      })),
  };
}

const MRR_COLUMNS: readonly ReportColumn<MrrRow>[] = [
  { header: 'Month', show: period, csv: csvPeriod },
  { header: 'MRR at start', show: (r) => money(r.mrr_start), csv: (r) => r.mrr_start },
  { header: 'New', show: (r) => money(r.new_mrr), csv: (r) => r.new_mrr },
  { header: 'Upgrades', show: (r) => money(r.upgrades), csv: (r) => r.upgrades },
  { header: 'Downgrades', show: (r) => money(r.downgrades), csv: (r) => r.downgrades },
  { header: 'Churned', show: (r) => money(r.churned), csv: (r) => r.churned },
  { header: 'Paused', show: (r) => money(r.paused), csv: (r) => r.paused },
  { header: 'Back from a pause', show: (r) => money(r.resumed), csv: (r) => r.resumed },
  { header: 'MRR at end', show: (r) => <strong>{money(r.mrr_end)}</strong>, csv: (r) => r.mrr_end },
  { header: 'Members at start', show: (r) => r.subscribers_start, csv: (r) => r.subscribers_start },
  { header: 'Members churned', show: (r) => r.churned_members, csv: (r) => r.churned_members },
  { header: 'Churn rate', show: (r) => formatPercent(r.churn_rate), csv: (r) => r.churn_rate },
];

function mrrChart(rows: readonly MrrRow[]): ChartSpec {
  const perMonth = months(rows);
  const pick = (name: string, i: number, value: (r: MrrRow) => number) => ({
    name,
    colour: CHART_COLOURS[i]!,
    values: perMonth.map(value),
  });
  return {
    labels: perMonth.map((r) => monthLabel(r.month ?? '')),
    formatValue: (v) => formatPounds(v),
    series: [
      pick('New', 0, (r) => r.new_mrr ?? 0),
      pick('Upgrades', 1, (r) => r.upgrades ?? 0),
      pick('Downgrades', 2, (r) => -(r.downgrades ?? 0)),
      pick('Churned', 3, (r) => -(r.churned ?? 0)),
      pick('Paused', 4, (r) => -(r.paused ?? 0)),
      pick('Back from a pause', 5, (r) => r.resumed ?? 0),
    ],
  };
}

const TRIAL_COLUMNS: readonly ReportColumn<TrialRow>[] = [
  { header: 'Month', show: period, csv: csvPeriod },
  { header: 'Trials ended', show: (r) => r.trials_ended, csv: (r) => r.trials_ended },
  { header: 'Bought a plan or package', show: (r) => r.converted, csv: (r) => r.converted },
  { header: 'Conversion', show: (r) => formatPercent(r.conversion_rate), csv: (r) => r.conversion_rate },
];

const ATTENDANCE_COLUMNS: readonly ReportColumn<AttendanceRow>[] = [
  { header: 'Month', show: period, csv: csvPeriod },
  { header: 'Bookings', show: (r) => r.bookings, csv: (r) => r.bookings },
  { header: 'Attended', show: (r) => r.attended, csv: (r) => r.attended },
  { header: 'No-shows', show: (r) => r.no_shows, csv: (r) => r.no_shows },
  { header: 'Not marked', show: (r) => r.unmarked, csv: (r) => r.unmarked },
  { header: 'Late cancels', show: (r) => r.late_cancels, csv: (r) => r.late_cancels },
  { header: 'No-show rate', show: (r) => formatPercent(r.no_show_rate), csv: (r) => r.no_show_rate },
  { header: 'Late-cancel rate', show: (r) => formatPercent(r.late_cancel_rate), csv: (r) => r.late_cancel_rate },
];

/** Analytics' reports: money, members and classes for a month or a custom range. */
export function ReportsSection() {
  const [range, setRange] = useState<ReportRange>(currentMonthRange);
  const reports = useAdminReports(range);
  const failed = reports.isError;
  useErrorToast(failed, ADMIN_MESSAGES.reportsLoadFailed);
  const revenue = reports.data?.revenue ?? null;
  const mrr = reports.data?.mrr ?? null;
  const trials = reports.data?.trials ?? null;
  const attendance = reports.data?.attendance ?? null;

  const netRevenue = revenue
    ? revenue.filter((r) => r.month === null && !REVENUE_MEMO_LINES.has(r.line ?? '')).reduce((sum, r) => sum + (r.net ?? 0), 0)
    : null;
  const mrrTotal = mrr ? total(mrr) : undefined;
  const trialTotal = trials ? total(trials) : undefined;
  const attendanceTotal = attendance ? total(attendance) : undefined;

  return (
    <section aria-labelledby="reports-heading" className="mt-10">
      <h2 id="reports-heading" className="mb-4 text-xl font-bold text-slate-900">
        Reports
      </h2>
      <ReportRangePicker range={range} onChange={setRange} />
      {failed && (
        <p role="alert" className="mb-4 text-red-700">
          {ADMIN_MESSAGES.reportsLoadFailed}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCard label="Net revenue" value={netRevenue === null ? '—' : formatPounds(netRevenue)} />
        <StatCard label="MRR at the end" value={mrrTotal ? money(mrrTotal.mrr_end) : '—'} />
        <StatCard label="Churn rate" value={mrrTotal ? formatPercent(mrrTotal.churn_rate) : '—'} />
        <StatCard label="Trial-to-paid conversion" value={trialTotal ? formatPercent(trialTotal.conversion_rate) : '—'} />
        <StatCard label="No-show rate" value={attendanceTotal ? formatPercent(attendanceTotal.no_show_rate) : '—'} />
        <StatCard label="Late-cancel rate" value={attendanceTotal ? formatPercent(attendanceTotal.late_cancel_rate) : '—'} />
        <MoneyHeldCard />
      </div>

      <ReportBlock
        id="report-revenue"
        title="Revenue by product line"
        intro="Payments received less refunds paid back, by the month each happened. Guest places come with guest passes and are not sold on their own."
        loading={!revenue}
      >
        {revenue && (
          <>
            <ReportChart spec={revenueChart(revenue)} />
            <ReportTable
              caption="Revenue by product line"
              columns={REVENUE_COLUMNS}
              rows={revenue}
              rowKey={(r) => `${r.month ?? 'total'}-${r.line}`}
              file="revenue"
              range={range}
            />
          </>
        )}
      </ReportBlock>

      <ReportBlock
        id="report-mrr"
        title="Monthly recurring revenue"
        intro="What memberships charge each month, from each membership's own history, and how it moved: new (a first month paid, or back after an end), upgrades, downgrades, and churned (a membership that lapsed, or was cancelled and reached the end of its paid month). A pause is not churn: its price leaves as paused on its first day and comes back after its last. A renewal at the same price changes nothing. Each month ends at the Memberships figure for that moment; this month's ends now. Churn rate: members who left out of those at the start."
        loading={!mrr}
      >
        {mrr && (
          <>
            <ReportChart spec={mrrChart(mrr)} />
            <ReportTable
              caption="Monthly recurring revenue and its movement"
              columns={MRR_COLUMNS}
              rows={mrr}
              rowKey={(r) => r.month ?? 'total'}
              file="mrr"
              range={range}
            />
          </>
        )}
      </ReportBlock>

      <ReportBlock
        id="report-trials"
        title="Trial-to-paid conversion"
        intro="Free trials that ended in the period, and how many of those members paid for a plan or package by 30 days after."
        loading={!trials}
      >
        {trials && (
          <ReportTable
            caption="Trial-to-paid conversion"
            columns={TRIAL_COLUMNS}
            rows={trials}
            rowKey={(r) => r.month ?? 'total'}
            file="trials"
            range={range}
          />
        )}
      </ReportBlock>

      <ReportBlock
        id="report-attendance"
        title="No-shows and late cancels"
        intro="Bookings of classes that took place, how they were marked, and cancellations inside the late-cancel window."
        loading={!attendance}
      >
        {attendance && (
          <ReportTable
            caption="No-shows and late cancels"
            columns={ATTENDANCE_COLUMNS}
            rows={attendance}
            rowKey={(r) => r.month ?? 'total'}
            file="attendance"
            range={range}
          />
        )}
      </ReportBlock>

      <FillHeatMap range={range} rows={reports.data ? (reports.data.fill ?? []) : null} />
    </section>
  );
}
