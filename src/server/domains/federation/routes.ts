import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { deniedHosts, wantsActivityPub } from './names.js';

// URLs only federation answers (WebFinger, NodeInfo, host-meta, the inboxes, followers, the forum's actor).
const FEDERATION_ONLY = /^\/(?:\.well-known\/(?:webfinger|nodeinfo|host-meta)|nodeinfo\/2\.1|inbox|actor|(?:uid|category)\/\d+\/(?:inbox|followers)|actor\/(?:inbox|followers))$/;
// The forum's own pages that answer ActivityPub JSON to an ActivityPub Accept (NodeBB's URLs).
const NEGOTIATED = /^\/(?:uid|category|post|topic)\/\d+$/;
const MAX_BODY = 1024 * 1024;
// Fedify's answer when it has nothing for the request.
const PASS = Symbol('pass');

function readBody(req: FastifyRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.raw.destroy();
        reject(new Error('body too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.raw.on('end', () => resolve(Buffer.concat(chunks)));
    req.raw.on('error', reject);
  });
}

/** The host names a signed inbox POST names: its actor's and its key's. */
function sendersOf(body: Buffer, signature: string | undefined): string[] {
  const hosts: string[] = [];
  try {
    const json = JSON.parse(body.toString('utf8')) as { actor?: unknown };
    const actor = typeof json.actor === 'string' ? json.actor : (json.actor as { id?: unknown } | undefined)?.id;
    if (typeof actor === 'string') hosts.push(new URL(actor).hostname);
  } catch {
    // Not JSON or no actor: Fedify refuses it.
  }
  const keyId = signature ? /keyId="([^"]+)"/.exec(signature)?.[1] : undefined;
  if (keyId && URL.canParse(keyId)) hosts.push(new URL(keyId).hostname);
  return hosts.map((h) => h.toLowerCase());
}

/**
 * Mounts Fedify (`federation.fetch`) in front of the page routes, without a second route table:
 * a request for a federation URL (WebFinger, NodeInfo, the inboxes) is Fedify's, and a request
 * for `/uid/:uid`, `/category/:cid`, `/post/:pid` or `/topic/:tid` is Fedify's when it asks for
 * ActivityPub JSON (404 when it has nothing for it); any other request goes on to the pages. While
 * the setting `activitypubEnabled` is off every federation URL answers 404. Federation lives at
 * the host's root: a forum under a sub-path (PALAVER_URL with a path) does not federate yet.
 */
export function registerFederationRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.relativePath) return;
  const origin = new URL(ctx.config.url).origin;
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0]!;
    const only = FEDERATION_ONLY.test(path);
    if (!only && !(NEGOTIATED.test(path) && wantsActivityPub(req.headers.accept))) return;
    const settings = await ctx.settings.get();
    if (!settings.activitypubEnabled) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    if (path === '/.well-known/host-meta') {
      return reply
        .type('application/xrd+xml; charset=utf-8')
        .send(`<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n  <Link rel="lrdd" template="${origin}/.well-known/webfinger?resource={uri}"/>\n</XRD>\n`);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    let body: Buffer | undefined;
    if (req.method === 'POST') {
      try {
        body = await readBody(req);
      } catch {
        return reply.code(413).type('text/plain; charset=utf-8').send('Payload too large');
      }
      const deny = deniedHosts(settings.activitypubDenyList);
      if (sendersOf(body, req.headers.signature as string | undefined).some((h) => deny.has(h))) {
        return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden');
      }
    }
    const request = new Request(new URL(req.url, origin), { method: req.method, headers, body: body && body.length ? new Uint8Array(body) : undefined });
    const pass = () => new Response(null, { status: 599, statusText: PASS.toString() });
    let res: Response;
    try {
      res = await (await ctx.federation.engine()).federation.fetch(request, { contextData: undefined, onNotFound: pass, onNotAcceptable: pass });
    } catch (err) {
      req.log.error({ err }, 'federation request failed');
      return reply.code(500).type('text/plain; charset=utf-8').send('Internal error');
    }
    // Nothing of Fedify's (an unknown actor, a post guests may not read): the client asked for
    // ActivityPub JSON, so it gets a 404, not the page.
    if (res.status === 599 && res.statusText === PASS.toString()) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    reply.code(res.status);
    res.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding') reply.header(name, value);
    });
    return reply.send(Buffer.from(await res.arrayBuffer()));
  });
}
