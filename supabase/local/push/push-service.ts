import { randomUUID } from 'node:crypto';
import { decryptPushBody, newReceiverKeys, PushDecryptError, verifyVapid, type ReceiverKeys } from './web-push-crypto';

/** A subscription as PushManager.subscribe() gives it to a page (PushSubscription.toJSON()). */
export type LocalSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/** One push the local push service received and decrypted. */
export interface ReceivedPush {
  id: string;
  subscriptionId: string;
  /** The decrypted body as sent (the studio's JSON payload). */
  payload: string;
  ttl: number;
  urgency: string | null;
  /** The VAPID subject of the sender (mailto: or https:). */
  sender: string;
  receivedAt: string;
}

export type PushAnswer = { status: number; message: string };

/**
 * The push service of the local stack (decision 0023), standing in for a browser vendor's and
 * for the browser behind it: it hands out subscriptions whose keys it keeps (a browser-less
 * client, for dev and tests), accepts pushes at their endpoints as a push service does (201;
 * 410 Gone for a subscription it no longer has; 400 for a message without a valid VAPID
 * signature or that does not decrypt; 403 for one signed with another key than the
 * subscription's, RFC 8292 section 4.2), decrypts them and lists them like the dev inbox.
 */
export class LocalPushService {
  private readonly subscriptions = new Map<string, ReceiverKeys & { serverKey: string }>();
  private received: ReceivedPush[] = [];

  /** `serverKey`: the VAPID public key subscriptions are made for unless one is given (the stack's). */
  constructor(
    private readonly baseUrl: () => string,
    private readonly serverKey: string,
  ) {}

  /** As PushManager.subscribe({ applicationServerKey }): only pushes signed with that key's pair are taken. */
  subscribe(applicationServerKey = this.serverKey): LocalSubscription & { id: string } {
    const id = randomUUID();
    const keys = newReceiverKeys();
    this.subscriptions.set(id, { ...keys, serverKey: applicationServerKey });
    return {
      id,
      endpoint: `${this.baseUrl()}/push/v1/send/${id}`,
      keys: { p256dh: keys.publicKey.toString('base64url'), auth: keys.auth.toString('base64url') },
    };
  }

  /** As when a browser's user blocks notifications: later pushes get 410 Gone. */
  unsubscribe(id: string): boolean {
    return this.subscriptions.delete(id);
  }

  receive(id: string, headers: Record<string, string | string[] | undefined>, body: Buffer, now = Date.now()): PushAnswer {
    const keys = this.subscriptions.get(id);
    if (!keys) return { status: 410, message: 'No such subscription' };
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const ttl = Number(header('ttl'));
    if (!Number.isInteger(ttl) || ttl < 0) return { status: 400, message: 'TTL header required' };
    if (header('content-encoding') !== 'aes128gcm') return { status: 415, message: 'Content-Encoding must be aes128gcm' };
    try {
      const { sub, publicKey } = verifyVapid(header('authorization'), new URL(this.baseUrl()).origin, Math.floor(now / 1000));
      // A push service ties a subscription to the key it was made with: another pair is refused.
      if (publicKey !== keys.serverKey) return { status: 403, message: 'the VAPID key is not the one this subscription was made with' };
      const payload = decryptPushBody(body, keys).toString('utf8');
      this.received.push({
        id: randomUUID(),
        subscriptionId: id,
        payload,
        ttl,
        urgency: header('urgency') ?? null,
        sender: sub,
        receivedAt: new Date(now).toISOString(),
      });
      return { status: 201, message: 'Created' };
    } catch (error) {
      if (error instanceof PushDecryptError) return { status: 400, message: error.message };
      throw error;
    }
  }

  /** Newest first. */
  list(): ReceivedPush[] {
    return [...this.received].reverse();
  }

  clear(): void {
    this.received = [];
  }
}
