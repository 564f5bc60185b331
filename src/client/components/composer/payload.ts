import type { ComposerRequest } from './types';

/** Query of the compose route for a request (spec §2 "compose" route). */
export function composeQuery(req: ComposerRequest): string {
  const q = new URLSearchParams();
  if (req.action === 'topics.post') {
    q.set('cid', String(req.cid ?? 0));
    if (req.title) q.set('title', req.title);
    if (req.body) q.set('body', req.body);
  } else if (req.action === 'posts.edit') {
    q.set('pid', String(req.pid));
  } else {
    q.set('tid', String(req.tid));
    if (req.toPid) q.set('toPid', String(req.toPid));
    if (req.selectedPid) {
      q.set('quoted', '1');
      if (req.username) q.set('username', req.username);
    } else {
      if (req.title) q.set('title', req.title);
      if (req.body) q.set('body', req.body);
    }
  }
  return q.toString();
}

/** Reads a compose route query back into a request. */
export function requestFromQuery(search: string): ComposerRequest {
  const q = new URLSearchParams(search);
  const num = (k: string) => (q.has(k) ? Number(q.get(k)) || 0 : undefined);
  if (q.has('pid')) return { action: 'posts.edit', pid: num('pid')! };
  if (q.has('tid')) {
    const quoted = q.get('quoted') === '1';
    return {
      action: 'posts.reply',
      tid: num('tid')!,
      toPid: num('toPid'),
      title: q.get('title') ?? undefined,
      body: q.get('body') ?? undefined,
      selectedPid: quoted ? num('toPid') : undefined,
      username: quoted ? (q.get('username') ?? undefined) : undefined,
    };
  }
  return { action: 'topics.post', cid: num('cid') ?? 0, title: q.get('title') ?? undefined, body: q.get('body') ?? undefined };
}

/** The quoted text: a header line, then the post with every line prefixed '> '. */
export function quoteBody(header: string, raw: string): string {
  const quoted = raw
    .trim()
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return `${header}\n${quoted}\n\n`;
}

/** Body of a new-topic request. */
export function newTopicPayload(cid: number, title: string, body: string, tags: string[]) {
  return { cid, title, content: body, tags };
}

/** Body of a reply request (toPid only when replying to a post). */
export function replyPayload(body: string, toPid: number) {
  return toPid ? { content: body, toPid } : { content: body };
}

/** Body of an edit request (title only when editing the main post). */
export function editPayload(body: string, title: string | null) {
  return title === null ? { content: body } : { content: body, title };
}
