/**
 * Reads NotificationResponse ('A') messages out of a Postgres wire-protocol byte stream.
 *
 * Why: PGlite is one backend session. Its `listen()` callbacks only fire for queries run through
 * its own parser, not for the raw protocol bytes it hands to the socket server (PostgREST's
 * connection). A LISTEN issued in-process still makes the backend emit the notification into
 * whatever stream runs next, so the gateway taps that stream for realtime (measured: see
 * docs/decisions/0002-local-stack.md).
 */
export class NotificationTap {
  private header = new Uint8Array(5);
  private headerFill = 0;
  private remaining = 0;
  private collecting: Uint8Array | null = null;
  private collected = 0;

  constructor(private readonly onNotification: (channel: string, payload: string) => void) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining === 0 && this.collecting === null) {
        const take = Math.min(5 - this.headerFill, chunk.length - i);
        this.header.set(chunk.subarray(i, i + take), this.headerFill);
        this.headerFill += take;
        i += take;
        if (this.headerFill < 5) return;
        this.headerFill = 0;
        const length = new DataView(this.header.buffer).getInt32(1) - 4;
        if (length <= 0) continue;
        if (this.header[0] === 0x41) {
          this.collecting = new Uint8Array(length);
          this.collected = 0;
        } else {
          this.remaining = length;
        }
        continue;
      }
      if (this.collecting) {
        const take = Math.min(this.collecting.length - this.collected, chunk.length - i);
        this.collecting.set(chunk.subarray(i, i + take), this.collected);
        this.collected += take;
        i += take;
        if (this.collected === this.collecting.length) {
          this.emit(this.collecting);
          this.collecting = null;
        }
        continue;
      }
      const skip = Math.min(this.remaining, chunk.length - i);
      this.remaining -= skip;
      i += skip;
    }
  }

  private emit(body: Uint8Array): void {
    // Int32 process id, then channel and payload as NUL-terminated strings.
    const text = new TextDecoder().decode(body.subarray(4));
    const [channel = '', payload = ''] = text.split('\0');
    try {
      this.onNotification(channel, payload);
    } catch (error) {
      console.error('[local stack] notification handler failed', error);
    }
  }
}
