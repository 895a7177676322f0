import { startOfMonthInStudio } from '@/lib/rules/month';
import { countMemberBookings } from './count-member-bookings';
import { getUpcomingBookings, type UpcomingBooking } from './get-upcoming-bookings';

export type DashboardData = {
  upcoming: UpcomingBooking[];
  upcomingTotal: number;
  /** Bookings since the 1st of this month, 00:00 London: the plan usage. */
  thisMonth: number;
  totalBookings: number;
};

/** Everything the dashboard shows besides the member row, fetched in parallel. */
export async function getDashboardData(memberId: string): Promise<DashboardData> {
  const now = new Date();
  const [upcoming, thisMonth, totalBookings] = await Promise.all([
    getUpcomingBookings(memberId, now),
    countMemberBookings(memberId, startOfMonthInStudio(now)),
    countMemberBookings(memberId),
  ]);
  return { upcoming: upcoming.bookings, upcomingTotal: upcoming.total, thisMonth, totalBookings };
}
