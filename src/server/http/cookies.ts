import type { SerializeOptions } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';

/**
 * Sets a cookie on the answer as a Set-Cookie header now. @fastify/cookie's `reply.setCookie`
 * keeps it aside until its onSend hook, which an answer written by http/send.ts's sendPieces
 * (pages) never runs; a header goes out with every answer. Setting a cookie again replaces
 * the earlier one of the same name and path, as `reply.setCookie` does.
 */
export function setCookie(reply: FastifyReply, name: string, value: string, options: SerializeOptions): void {
  const path = options.path ?? '/';
  const header = reply.getHeader('set-cookie');
  const kept = (header === undefined ? [] : Array.isArray(header) ? header : [String(header)]).filter((c) => !sameCookie(c, name, path));
  kept.push(reply.server.serializeCookie(name, value, { ...options, path }));
  reply.removeHeader('set-cookie');
  reply.header('set-cookie', kept.length === 1 ? kept[0] : kept);
}

/** Tells the browser to drop a cookie (set with the same path), as a header now (see setCookie). */
export function clearCookie(reply: FastifyReply, name: string, options: SerializeOptions): void {
  setCookie(reply, name, '', { ...options, expires: new Date(0), maxAge: 0 });
}

/** True when a Set-Cookie value is for the cookie of this name and path. */
function sameCookie(header: string, name: string, path: string): boolean {
  if (!header.startsWith(`${name}=`)) return false;
  const given = /;\s*path=([^;]*)/i.exec(header)?.[1] ?? '/';
  return given === path;
}
