/**
 * What a push carries to the service worker (public/push-handler.js reads it): the notification's
 * words, the page it opens, and a tag so a later push about the same class replaces the earlier
 * one. Kept small: push services accept about 4 KB after encryption.
 */
export type PushPayload = { title: string; body: string; path: string; tag: string; kind: string };

export function pushPayload(row: PushPayload): PushPayload {
  return { title: row.title, body: row.body, path: row.path, tag: row.tag, kind: row.kind };
}
