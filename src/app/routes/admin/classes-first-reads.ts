import type { FirstReads } from '../../first-reads';
import { classesPageQueryOptions } from '@/features/admin/api/get-classes';

/** /admin: the first page of upcoming classes. */
export const firstReads: FirstReads = {
  admin: (client) => void client.prefetchQuery(classesPageQueryOptions(0, false)),
};
