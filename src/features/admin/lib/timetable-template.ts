import { TRAINER_NAME } from '@/config/studio';

/**
 * What `regenerate_timetable` creates (spec section 9), described on the Generate page. The
 * database function holds the same values; this is the human-readable side of it.
 */
export const TIMETABLE_TEMPLATE = {
  breakfastClub: { name: 'Breakfast Club', days: 'Monday to Friday', times: ['06:00', '07:15', '08:30', '10:00'] },
  kidsClub: { name: 'Kids Club', days: 'Monday only', times: ['16:45'] },
  durationMinutes: 45,
  capacity: 12,
  pricePaygGbp: '10.00',
  trainer: TRAINER_NAME,
} as const;
