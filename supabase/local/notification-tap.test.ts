import { describe, expect, it } from 'vitest';
import { NotificationTap } from './notification-tap';

function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, body.length + 4);
  out.set(body, 5);
  return out;
}

function notification(channel: string, payload: string): Uint8Array {
  const text = new TextEncoder().encode(`${channel}\0${payload}\0`);
  const body = new Uint8Array(4 + text.length);
  body.set(text, 4);
  return message('A', body);
}

describe('NotificationTap', () => {
  it('finds notifications among other messages, even when split across chunks', () => {
    const seen: string[] = [];
    const tap = new NotificationTap((c, p) => seen.push(`${c}:${p}`));
    const stream = new Uint8Array([
      ...message('D', new TextEncoder().encode('A row that contains the letter A')),
      ...notification('realtime', '{"id":1}'),
      ...message('Z', new Uint8Array([0x49])),
      ...notification('other', 'x'),
    ]);
    for (let i = 0; i < stream.length; i += 3) tap.push(stream.subarray(i, i + 3));
    expect(seen).toEqual(['realtime:{"id":1}', 'other:x']);
  });
});
