import { isLoopbackUrl } from '../server-env';

/**
 * Where the sender may POST a push: the push services browsers subscribe through (Google's FCM
 * for Chrome, Edge on Android, Samsung Internet and Opera; Mozilla's autopush for Firefox; Apple's
 * for Safari; Microsoft's WNS for Edge on Windows), matched on the endpoint as saved. The same
 * list as the database's `private.push_endpoint_allowed` (supabase/schemas/20_push.sql), which
 * refuses to save any other endpoint; kept here too because the sender requests whatever address a
 * row holds, and a row written another way must not aim the functions elsewhere (decision 0023).
 */
const PUSH_SERVICE_ENDPOINT =
  /^https:\/\/(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com|web\.push\.apple\.com|[a-z0-9-]+\.notify\.windows\.com)\//;

/** The local stack's own push service (supabase/local/push), on loopback. */
const LOOPBACK_ENDPOINT = /^https?:\/\/(127\.0\.0\.1|localhost)(:[0-9]{1,5})?\//;

/**
 * Whether a push may be posted to `endpoint`. Loopback only with `loopback`, which the callers set
 * from the database they send for (`loopbackPushesAllowed`): the local stack's, never hosted's.
 */
export function pushEndpointAllowed(endpoint: string, options: { loopback: boolean }): boolean {
  if (endpoint.length > 2000) return false;
  return PUSH_SERVICE_ENDPOINT.test(endpoint) || (options.loopback && LOOPBACK_ENDPOINT.test(endpoint));
}

/**
 * Loopback endpoints are the local stack's push service, so they are allowed exactly when the
 * pushes come from a database on loopback (the local stack), as the payments pick their test
 * provider (`isLocalStack`). A deployed site's SUPABASE_URL is its hosted project's https address.
 */
export function loopbackPushesAllowed(databaseUrl: string): boolean {
  return isLoopbackUrl(databaseUrl);
}
