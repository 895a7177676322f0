import { json, methodNotAllowed } from '../lib/http';
import { readPushEnv } from '../lib/push/push-env';
import { ConfigError } from '../lib/server-env';
import type { FunctionAnswer } from '../../src/lib/functions-contract';

/**
 * POST /.netlify/functions/push-key → the VAPID public key a browser subscribes to the studio's
 * pushes with (public by nature: it only lets a push service check that pushes come from the
 * holder of the private key). Read at run time, so the build needs no key and the local stack's
 * dev pair works as production's does.
 */
export default function pushKey(req: Request): Response {
  if (req.method !== 'POST') return methodNotAllowed('POST');
  try {
    const answer: FunctionAnswer<'push-key'> = { publicKey: readPushEnv().publicKey };
    return json(answer);
  } catch (error) {
    if (error instanceof ConfigError)
      return json({ error: 'push_unavailable', message: 'Notifications are not set up on this site yet.' }, 503);
    throw error;
  }
}
