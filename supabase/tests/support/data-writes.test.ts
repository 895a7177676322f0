import { expect, it } from 'vitest';
import { dataWrites } from './data-writes.ts';

// The schema test's reading of function bodies must catch the writes pg-safeupdate refuses.

it('flags a DELETE or UPDATE without a WHERE, as pg-safeupdate would refuse it', () => {
  const body = `begin
    delete from public.classes;
    update public.members m set is_admin = false;
    delete from public.bookings where payment_status = 'pending';
  end;`;
  expect(dataWrites(body).map((w) => w.guarded)).toEqual([false, false, true]);
});

it('ignores row locks, upserts, comments and strings, and finds UPDATE with an alias', () => {
  const body = `
    select * from public.classes where id = p_id for update;
    select * from public.members where id = p_id for no key update;
    -- delete from public.classes;
    raise exception 'update x set y';
    insert into public.members as m (email) values ('a') on conflict (email) do update set user_id = excluded.user_id where m.user_id is null;
    update public.notification_outbox o set sent_at = now() where o.id in (select id from public.notification_outbox for update skip locked)`;
  expect(dataWrites(body)).toEqual([
    {
      statement:
        'update public.notification_outbox o set sent_at = now() where o.id in (select id from public.notification_outbox for update skip locked)',
      guarded: true,
    },
  ]);
});
