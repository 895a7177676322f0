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

/**
 * The template's slots as the database names them (classes.template_slot, private.timetable_slots):
 * where each slot's classes meet is set per slot on Admin > Settings.
 */
export const TEMPLATE_SLOTS: readonly { slot: string; label: string }[] = [
  ...TIMETABLE_TEMPLATE.breakfastClub.times.map((t) => ({
    slot: `${TIMETABLE_TEMPLATE.breakfastClub.name} ${t}`,
    label: `${TIMETABLE_TEMPLATE.breakfastClub.name}, ${TIMETABLE_TEMPLATE.breakfastClub.days}, ${t}`,
  })),
  ...TIMETABLE_TEMPLATE.kidsClub.times.map((t) => ({
    slot: `${TIMETABLE_TEMPLATE.kidsClub.name} ${t}`,
    label: `${TIMETABLE_TEMPLATE.kidsClub.name}, ${TIMETABLE_TEMPLATE.kidsClub.days}, ${t}`,
  })),
];
