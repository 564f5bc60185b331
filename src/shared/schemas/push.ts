import { Type, type Static } from 'typebox';
import type { PageBase } from '../types.js';

/** Bounds of a push subscription as a browser hands it over (PushSubscription.toJSON()). */
export const PUSH_LIMITS = {
  /** Push services' endpoints are a few hundred characters; this leaves room. */
  endpoint: 2048,
  /** base64url of an uncompressed P-256 point (65 bytes) is 87 characters; some encoders pad. */
  p256dh: 100,
  /** base64url of the 16-byte auth secret is 22 characters. */
  auth: 32,
  /** A member's browsers; subscribing one more drops the oldest. */
  perMember: 20,
} as const;

/** One of a member's push subscriptions as the account page lists it. */
export const PushDeviceSchema = Type.Object({
  id: Type.Number(),
  /** The browser's user agent when it subscribed. */
  userAgent: Type.String(),
  /** The push service's host (the endpoint itself is a secret of the browser). */
  service: Type.String(),
  /** sha-256 of the endpoint (hex, 16 characters): the page finds "this browser" by it. */
  endpointId: Type.String(),
  created: Type.Number(),
  createdISO: Type.String(),
});
export type PushDevice = Static<typeof PushDeviceSchema>;

/** The public VAPID key the browser subscribes with (base64url). */
export const VapidKeySchema = Type.Object({ publicKey: Type.String() });

/** Page data of `/user/:userslug/web-push` (template `account/web-push`). */
export interface WebPushPage extends PageBase {
  uid: number;
  username: string;
  userslug: string;
  /** True when the viewer is the member (an admin looking at another member's devices cannot subscribe for them). */
  isSelf: boolean;
  vapidKey: string;
  devices: PushDevice[];
}

/** What the service worker receives in a push (JSON). */
export interface PushMessage {
  /** The forum's title. */
  title: string;
  /** The notification's text in the reader's language. */
  body: string;
  /** Absolute URL the notification opens. */
  url: string;
  /** The same notification pushed again replaces the shown one. */
  tag: string;
}
