import webpush from 'web-push';
import { OutgoingRefused, type OutgoingGuard } from '../../http/outgoing.js';
import type { PushSubscriptionRow } from './store.js';

/** How long a push service may take to answer before the send counts as failed (and is retried). */
const TIMEOUT_MS = 10_000;
/** How long a push service keeps a message for an offline browser (seconds). */
const TTL_S = 24 * 3600;

/** What came of one send: delivered, gone for good (404/410: drop the subscription), refused by the outgoing guard (drop it too), or failed (retry). */
export type SendOutcome = { kind: 'sent' } | { kind: 'gone'; status: number } | { kind: 'refused'; error: string } | { kind: 'failed'; error: string };

/** The forum's VAPID identity for a send. */
export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/**
 * Encrypts a payload for one subscription (aes128gcm, RFC 8291) and posts it to its endpoint,
 * signed with the forum's VAPID key. `web-push` builds the request; the request itself goes
 * through the forum's outgoing guard (http/outgoing.ts), which resolves the endpoint's host now,
 * refuses a private address, connects to the address it checked and never follows a redirect. A
 * refused endpoint counts as gone: no retry can make it deliverable.
 */
export async function sendPush(
  outgoing: OutgoingGuard,
  sub: Pick<PushSubscriptionRow, 'endpoint' | 'p256dh' | 'auth'>,
  payload: string,
  vapid: VapidDetails,
  topic?: string,
): Promise<SendOutcome> {
  let details: webpush.RequestDetails;
  try {
    details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
      vapidDetails: vapid,
      TTL: TTL_S,
      ...(topic ? { topic } : {}),
    });
  } catch {
    // Keys no browser could have made: the subscription can never work.
    return { kind: 'gone', status: 0 };
  }
  try {
    const res = await outgoing.request(details.endpoint, {
      method: 'POST',
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : undefined,
      timeoutMs: TIMEOUT_MS,
      maxBytes: 64 * 1024,
    });
    if (res.status >= 200 && res.status < 300) return { kind: 'sent' };
    if (res.status === 404 || res.status === 410) return { kind: 'gone', status: res.status };
    return { kind: 'failed', error: `push service answered ${res.status}` };
  } catch (err) {
    if (err instanceof OutgoingRefused) return { kind: 'refused', error: err.message };
    return { kind: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
}

/** A new VAPID key pair (base64url). */
export function newVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
