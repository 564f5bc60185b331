/** What happened to a post, for the deliveries it makes. */
export type PostEvent = 'create' | 'update' | 'delete';

/** A local actor: a member (`uid/5`), a category (`category/3`) or the forum (`actor`). */
export type Local = { kind: 'member'; uid: number } | { kind: 'category'; cid: number } | { kind: 'forum' };

const AP_TYPES = /application\/activity\+json|application\/ld\+json/i;

/** True when a request's Accept header asks for ActivityPub JSON. */
export function wantsActivityPub(accept: string | undefined): boolean {
  return !!accept && AP_TYPES.test(accept);
}

/** A local actor's identifier parsed (null: not one of ours). */
export function parseIdentifier(identifier: string): Local | null {
  let m = /^uid\/([1-9]\d{0,9})$/.exec(identifier);
  if (m) return { kind: 'member', uid: Number(m[1]) };
  m = /^category\/([1-9]\d{0,9})$/.exec(identifier);
  if (m) return { kind: 'category', cid: Number(m[1]) };
  return identifier === 'actor' ? { kind: 'forum' } : null;
}

/** The host names of the deny list setting (one a line, or separated by commas or spaces). */
export function deniedHosts(list: string): Set<string> {
  return new Set(
    list
      .split(/[\s,]+/)
      .map((h) => h.trim().toLowerCase().replace(/\.$/, ''))
      .filter(Boolean),
  );
}
