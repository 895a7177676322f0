import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';

/**
 * The receiving side of Web Push, as a browser does it, for the local push service: a
 * subscription's keys (a P-256 key pair and an auth secret), the decryption of an aes128gcm
 * message (RFC 8188 record, RFC 8291 keys) and the check of its VAPID signature (RFC 8292).
 */
export type ReceiverKeys = { privateKey: Buffer; publicKey: Buffer; auth: Buffer };

export function newReceiverKeys(): ReceiverKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { privateKey: ecdh.getPrivateKey(), publicKey: ecdh.getPublicKey(), auth: randomBytes(16) };
}

const info = (label: string, ...parts: Buffer[]) => Buffer.concat([Buffer.from(`${label}\0`, 'utf8'), ...parts]);
const hkdf = (ikm: Buffer, salt: Buffer, what: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, what, length));

export class PushDecryptError extends Error {}

/** The plaintext of an aes128gcm Web Push body (one record, as push messages are). */
export function decryptPushBody(body: Buffer, keys: ReceiverKeys): Buffer {
  if (body.length < 21 + 65 + 17) throw new PushDecryptError('body too short for an aes128gcm message');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65 || senderKey[0] !== 4) throw new PushDecryptError('the key id is not an uncompressed P-256 key');
  if (record.length > recordSize) throw new PushDecryptError('more than one record');

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(keys.privateKey);
  const shared = ecdh.computeSecret(senderKey);
  const ikm = hkdf(shared, keys.auth, info('WebPush: info', keys.publicKey, senderKey), 32);
  const cek = hkdf(ikm, salt, info('Content-Encoding: aes128gcm'), 16);
  const nonce = hkdf(ikm, salt, info('Content-Encoding: nonce'), 12);

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  let padded: Buffer;
  try {
    padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    throw new PushDecryptError('the message does not decrypt with this subscription’s keys');
  }
  // The last record ends with 0x02 and then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new PushDecryptError('no last-record delimiter');
  return padded.subarray(0, end);
}

/** A VAPID Authorization header's claims once its signature checks with its own key (`vapid t=…, k=…`). */
export function verifyVapid(header: string | undefined, audience: string, nowSeconds: number): { sub: string; publicKey: string } {
  const m = /^vapid\s+t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/i.exec(header ?? '');
  if (!m) throw new PushDecryptError('no VAPID Authorization header');
  const [token, key] = [m[1]!, m[2]!];
  const [head, payload, signature] = token.split('.');
  if (!head || !payload || !signature) throw new PushDecryptError('the VAPID token is not a JWT');
  const raw = Buffer.from(key, 'base64url');
  const jwk = { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') };
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${payload}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new PushDecryptError('the VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud?: string; exp?: number; sub?: string };
  if (claims.aud !== audience) throw new PushDecryptError(`the VAPID audience is ${claims.aud}, not ${audience}`);
  if (!claims.exp || claims.exp <= nowSeconds || claims.exp > nowSeconds + 24 * 3600)
    throw new PushDecryptError('the VAPID token has expired or lives over 24 hours');
  if (!claims.sub) throw new PushDecryptError('the VAPID token has no subject');
  return { sub: claims.sub, publicKey: key };
}
