import { describe, expect, it, vi } from 'vitest';
import { Inbox } from './inbox';
import { OUTBOX_BATCH, OutboxSender, renderOutboxEmail, type OutboxRow } from './outbox-sender';

const SITE = 'https://studio.example';

function row(n: number, extra: Partial<OutboxRow> = {}): OutboxRow {
  return {
    id: `id-${n}`,
    attempts: 1,
    to_email: `m${n}@studio.test`,
    subject: `Email ${n}`,
    body_text: `Hi ${n},\n\nbody`,
    links: [{ label: 'Manage or cancel your booking', path: '/mybookings' }],
    ...extra,
  };
}

/** A fake outbox: dequeue hands out queued rows (at most p_limit), requeue puts one back. */
function fakeOutbox(rows: OutboxRow[]) {
  const queue = [...rows];
  const calls: Array<{ fn: string; args: Record<string, unknown> }> = [];
  const rpc = <T,>(fn: string, args: Record<string, unknown>): Promise<T> => {
    calls.push({ fn, args });
    if (fn === 'dequeue_notifications') {
      const taken = queue.splice(0, args.p_limit as number).map((r) => ({ ...r, attempts: r.attempts }));
      return Promise.resolve(taken as T);
    }
    if (fn === 'requeue_notification') {
      const original = rows.find((r) => r.id === args.p_id)!;
      original.attempts += 1;
      queue.push(original);
      return Promise.resolve(null as T);
    }
    return Promise.reject(new Error(`unexpected ${fn}`));
  };
  return { queue, calls, rpc };
}

describe('renderOutboxEmail', () => {
  it('escapes the text, keeps its lines and adds one link per entry on the site', () => {
    const html = renderOutboxEmail(
      {
        body_text: 'Hi <Tom> & co,\n\nWhen: today\nWhere: "the hall"',
        links: [
          { label: 'Manage or cancel your booking', path: '/mybookings' },
          { label: 'Book <another>', path: '/my-schedule?x=1&y=2' },
        ],
      },
      `${SITE}/`,
    );
    expect(html).toBe(
      '<p>Hi &lt;Tom&gt; &amp; co,<br>\n<br>\nWhen: today<br>\nWhere: &quot;the hall&quot;</p>\n' +
        `<p><a href="${SITE}/mybookings">Manage or cancel your booking</a></p>\n` +
        `<p><a href="${SITE}/my-schedule?x=1&amp;y=2">Book &lt;another&gt;</a></p>`,
    );
    const inbox = new Inbox();
    expect(inbox.send('a@b.c', 's', html).links).toEqual([`${SITE}/mybookings`, `${SITE}/my-schedule?x=1&y=2`]);
  });

  it('refuses links that are not site paths', () => {
    expect(() => renderOutboxEmail({ body_text: 'x', links: [{ label: 'x', path: 'https://evil.example' }] }, SITE)).toThrow(/malformed link/);
    expect(() => renderOutboxEmail({ body_text: 'x', links: {} }, SITE)).toThrow(/not an array/);
  });
});

describe('OutboxSender', () => {
  it('drains in batches until the outbox is empty, once per wake-up burst', async () => {
    const rows = Array.from({ length: OUTBOX_BATCH + 3 }, (_, i) => row(i));
    const outbox = fakeOutbox(rows);
    const inbox = new Inbox();
    const sender = new OutboxSender({ rpc: outbox.rpc, inbox, siteUrl: SITE });
    sender.wake();
    sender.wake();
    await sender.idle();
    expect(inbox.list()).toHaveLength(OUTBOX_BATCH + 3);
    expect(inbox.list().at(-1)).toMatchObject({ to: 'm0@studio.test', subject: 'Email 0', links: [`${SITE}/mybookings`] });
    // Two batches, then the second wake-up's drain finds nothing.
    expect(outbox.calls.map((c) => c.fn)).toEqual(['dequeue_notifications', 'dequeue_notifications', 'dequeue_notifications']);
    expect(outbox.calls[0]?.args).toEqual({ p_limit: OUTBOX_BATCH });
    await sender.stop();
  });

  it('gives a failed email back with the error, retries it on a timer, and gives up after 5 attempts', async () => {
    vi.useFakeTimers();
    try {
      const bad = row(1, { links: [{ label: 'x', path: 'nope' }] });
      const outbox = fakeOutbox([bad, row(2)]);
      const inbox = new Inbox();
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const sender = new OutboxSender({ rpc: outbox.rpc, inbox, siteUrl: SITE, retryMs: 1000 });
      sender.wake();
      await sender.idle();
      expect(inbox.list().map((e) => e.subject)).toEqual(['Email 2']);
      expect(outbox.calls.find((c) => c.fn === 'requeue_notification')?.args).toEqual({
        p_id: 'id-1',
        p_error: 'malformed link {"label":"x","path":"nope"}',
      });
      for (let i = 0; i < 6; i++) {
        await vi.advanceTimersByTimeAsync(1000);
        await sender.idle();
      }
      expect(outbox.calls.filter((c) => c.fn === 'requeue_notification')).toHaveLength(4);
      expect(error).toHaveBeenCalledWith('[local stack] giving up on email id-1 after 5 attempts:', expect.any(String));
      expect(outbox.queue).toEqual([]);
      error.mockRestore();
      await sender.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries when the database is unreachable, and stops its timer on stop()', async () => {
    vi.useFakeTimers();
    try {
      const rpc = vi.fn(() => Promise.reject(new Error('connect ECONNREFUSED')));
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const sender = new OutboxSender({ rpc, inbox: new Inbox(), siteUrl: SITE, retryMs: 1000 });
      sender.wake();
      await sender.idle();
      expect(rpc).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1000);
      await sender.idle();
      expect(rpc).toHaveBeenCalledTimes(2);
      await sender.stop();
      await vi.advanceTimersByTimeAsync(5000);
      sender.wake();
      expect(rpc).toHaveBeenCalledTimes(2);
      expect(vi.getTimerCount()).toBe(0);
      error.mockRestore();
    } finally {
      vi.useRealTimers();
    }
  });
});
