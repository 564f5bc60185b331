#!/usr/bin/env node
// NodeBB API conformance: starts a seeded Palaver (fresh SQLite data dir in a temp folder),
// calls every operation of NodeBB's OpenAPI documents and checks each 200 answer against the
// documented schema with NodeBB's own rule (test/api.js in NodeBB): every listed property is
// required unless the schema has a `required` list, null only where `nullable`, a property the
// schema does not list fails unless the schema has `additionalProperties`. Stricter than that
// test where it looks away: numbers are type-checked, `oneOf` types too, and a schema given as
// `allOf` or `properties` without `type: object` is still followed (NodeBB's test stops there,
// which would leave most `response` objects unchecked).
//
// Usage: npm run conformance [-- --dist] [-- --only REGEX] [-- --verbose]
//   --dist     run the built server (dist/) instead of the sources through tsx
//   --only     only the operations whose "METHOD /path" matches REGEX
// Exit code 1 when a served /api/v3 operation does not conform (or the server cannot start).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const refDir = process.env.CONFORMANCE_REFERENCE ?? path.resolve(root, '../shared/reference/nodebb-openapi');
const args = process.argv.slice(2);
const useDist = args.includes('--dist');
const verbose = args.includes('--verbose');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? new RegExp(args[onlyIdx + 1] ?? '.') : null;

if (!existsSync(path.join(refDir, 'read.yaml')) || !existsSync(path.join(refDir, 'write.yaml'))) {
  console.log(`conformance: skipped, NodeBB's OpenAPI documents are not at ${refDir}`);
  process.exit(0);
}

// ---------------------------------------------------------------- documents and $refs

const fileCache = new Map();
function loadYaml(file) {
  if (!fileCache.has(file)) fileCache.set(file, YAML.parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 }));
  return fileCache.get(file);
}

function pointer(doc, ptr) {
  if (!ptr) return doc;
  return ptr
    .replace(/^\//, '')
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p.replace(/~1/g, '/').replace(/~0/g, '~')))
    .reduce((node, key) => (node == null ? undefined : node[key]), doc);
}

const refCache = new Map();
/** Replaces every $ref (in this file or another, relative to the file holding it) by its target. */
function resolve(node, file, depth = 0) {
  if (depth > 60) return {};
  if (Array.isArray(node)) return node.map((n) => resolve(n, file, depth + 1));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const [rel, ptr] = node.$ref.split('#');
    const target = rel ? path.resolve(path.dirname(file), rel) : file;
    const key = `${target}#${ptr ?? ''}`;
    if (!refCache.has(key)) {
      refCache.set(key, {}); // a cycle resolves to an open schema
      refCache.set(key, resolve(pointer(loadYaml(target), ptr), target, depth + 1));
    }
    return refCache.get(key);
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = resolve(v, file, depth + 1);
  return out;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
function operations(docName) {
  const file = path.join(refDir, docName);
  const doc = resolve(loadYaml(file), file);
  const prefix = doc.servers?.[0]?.url ?? '';
  const ops = [];
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    // In the document's own order (NodeBB's test too): DELETE …/state comes before PUT …/state.
    for (const method of Object.keys(item ?? {}).filter((m) => METHODS.includes(m))) ops.push({ doc: docName, method, path: p, url: prefix + p, op: item[method] });
  }
  return ops;
}

// ---------------------------------------------------------------- NodeBB's comparison rule

const TYPES = { string: 'string', boolean: 'boolean', number: 'number', integer: 'number' };

/** Whether a schema describes an object: NodeBB's `type: object`, or (stricter than NodeBB's test, which skips them) `allOf` or `properties` without a type. */
const isObject = (s) => s.type === 'object' || (!s.type && !s.oneOf && !s.anyOf && (Array.isArray(s.allOf) || !!s.properties));

/** Whether a scalar fits `type` (one or a list) or a `oneOf`/`anyOf` of types; true when the schema names none. */
function typeFits(s, v) {
  const branches = s.oneOf ?? s.anyOf;
  if (branches) return branches.some((b) => (b.type === 'null' ? v === null : typeFits(b, v)));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (!types.length) return true;
  return types.some((t) => (TYPES[t] ? typeof v === TYPES[t] : t === 'array' ? Array.isArray(v) : t === 'object' ? typeof v === 'object' && v !== null : t === 'null' && v === null));
}

/** NodeBB's compare(): the list of differences of `value` from `schema` (empty when it conforms). */
function compare(schema, value, where, out) {
  let required = [];
  const additional = Object.prototype.hasOwnProperty.call(schema, 'additionalProperties');
  let props;
  const flatten = (list) =>
    list.reduce((memo, s) => {
      if (s.allOf) s = { properties: flatten(s.allOf) };
      else required = required.concat(s.required ?? Object.keys(s.properties ?? {}));
      return { ...memo, ...(s.properties ?? {}) };
    }, {});
  if (schema.allOf) props = flatten(schema.allOf);
  else if (schema.properties) {
    required = schema.required ?? Object.keys(schema.properties);
    props = schema.properties;
  } else return out;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    out.push(`${where}: expected an object, got ${JSON.stringify(value)?.slice(0, 40)}`);
    return out;
  }
  for (const prop of required) {
    const s = props[prop];
    if (!s) continue;
    const at = `${where}.${prop}`;
    if (!Object.prototype.hasOwnProperty.call(value, prop)) {
      out.push(`${at}: missing`);
      continue;
    }
    const v = value[prop];
    if (v === null) {
      const nullable = s.nullable === true || (s.oneOf ?? s.anyOf ?? []).some((b) => b.type === 'null') || (Array.isArray(s.type) && s.type.includes('null'));
      if (!nullable) out.push(`${at}: null, not nullable`);
      continue;
    }
    if (isObject(s)) {
      if (typeof v !== 'object' || Array.isArray(v)) out.push(`${at}: expected object, got ${Array.isArray(v) ? 'array' : typeof v}`);
      else compare(s, v, at, out);
    } else if (s.type === 'array') {
      if (!Array.isArray(v)) {
        out.push(`${at}: expected array, got ${typeof v}`);
        continue;
      }
      const items = s.items;
      if (!items) continue;
      if (isObject(items)) v.forEach((item, i) => compare(items, item, `${at}[${i}]`, out));
      else v.forEach((item, i) => !typeFits(items, item) && out.push(`${at}[${i}]: expected ${JSON.stringify(items.type ?? items.oneOf)}, got ${typeof item}`));
    } else if (!typeFits(s, v)) {
      out.push(`${at}: expected ${JSON.stringify(s.type ?? (s.oneOf ?? s.anyOf).map((b) => b.type))}, got ${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`);
    }
  }
  if (!additional) for (const prop of Object.keys(value)) if (!props[prop]) out.push(`${where}.${prop}: not in NodeBB's schema`);
  return out;
}

// ---------------------------------------------------------------- the server

async function freePort() {
  return new Promise((ok, fail) => {
    const srv = net.createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'palaver-conformance-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const admin = { username: 'admin', email: 'admin@example.com', password: 'Correct-Horse-Battery-9' };
const env = {
  ...process.env,
  DATABASE_URL: '',
  REDIS_URL: '',
  PORT: String(port),
  HOST: '127.0.0.1',
  PALAVER_URL: base,
  PALAVER_DATA_DIR: dataDir,
  PALAVER_SECRET: 'conformance-secret-0123456789',
  PALAVER_ADMIN_USERNAME: admin.username,
  PALAVER_ADMIN_EMAIL: admin.email,
  PALAVER_ADMIN_PASSWORD: admin.password,
  PALAVER_RATE_LOGIN: '100000',
  PALAVER_RATE_REGISTER: '100000',
  PALAVER_RATE_POSTS: '100000',
  PALAVER_GUEST_CACHE_MS: '0',
  LOG_LEVEL: 'error',
};
const entry = useDist ? [path.join(root, 'dist/server/main.js')] : ['--import', 'tsx', path.join(root, 'src/server/main.ts')];
if (useDist && !existsSync(entry[0])) {
  console.error('conformance: dist/server/main.js is missing; run npm run build first');
  process.exit(1);
}

let server;
function stop() {
  if (server && server.exitCode === null) server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));

async function startServer() {
  server = spawn(process.execPath, [...entry, 'start'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (d) => (stderr += d));
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${stderr}`);
    try {
      const res = await fetch(`${base}/api/v3/ping`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer within 60 s:\n${stderr}`);
}

function cli(...argv) {
  const r = spawnSync(process.execPath, [...entry, ...argv], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`palaver ${argv.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}

let token = '';
/** One JSON request as the administrator (bearer token: no CSRF token needed). */
async function call(method, url, body, bearer = token) {
  const headers = { accept: 'application/json' };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const multipart = body instanceof FormData;
  if (body !== undefined && !multipart) headers['content-type'] = 'application/json';
  const payload = body === undefined ? undefined : multipart ? body : JSON.stringify(body);
  const res = await fetch(base + url, { method: method.toUpperCase(), headers, body: payload, redirect: 'manual', signal: AbortSignal.timeout(15000) });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, location: res.headers.get('location'), xRedirect: res.headers.get('x-redirect') };
}

async function must(method, url, body, bearer) {
  const r = await call(method, url, body, bearer);
  if (r.status !== 200) throw new Error(`seeding: ${method.toUpperCase()} ${url} answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r.json?.response ?? r.json;
}

// A 2×2 PNG (a different colour per `n`, so each upload is its own file), for multipart calls.
const PNG_2X2 = [
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWNgYPgPRmAKABf2A/38FIMyAAAAAElFTkSuQmCC',
];
function pngForm(name, n = 0) {
  const form = new FormData();
  form.append('files', new Blob([Buffer.from(PNG_2X2[n % PNG_2X2.length], 'base64')], { type: 'image/png' }), name);
  return form;
}

/** Members, a category, topics with replies and tags, votes; returns the ids the calls use. */
async function seed() {
  // New members may post at once and as often as the run needs.
  for (const setting of ['initialPostDelay', 'postDelay', 'newbiePostDelay']) await must('put', `/api/v3/admin/settings/${setting}`, { value: '0' });
  const member = await must('post', '/api/v3/users', { username: 'member', email: 'member@example.com', password: admin.password });
  const victim = await must('post', '/api/v3/users', { username: 'victim', email: 'victim@example.com', password: admin.password });
  // The victim is deleted by DELETE /users/{uid} before the later writes run: what they need stays with the spare.
  const spare = await must('post', '/api/v3/users', { username: 'spare', email: 'spare@example.com', password: admin.password });
  // DELETE /users/{uid}/account deletes a member of its own (the member and the victim are needed later).
  const leaver = await must('post', '/api/v3/users', { username: 'leaver', email: 'leaver@example.com', password: admin.password });
  const memberToken = (await must('post', `/api/v3/users/${member.uid}/tokens`, {})).token;
  const category = await must('post', '/api/v3/categories', { name: 'Conformance', description: 'Seeded for the conformance run' });
  const cid = category.cid;
  const topic = await must('post', '/api/v3/topics', { cid, title: 'A seeded topic for conformance', content: 'The first post of the seeded topic.', tags: ['nodebb', 'conformance'] });
  const tid = topic.tid;
  const replies = [];
  for (let i = 0; i < 3; i++) replies.push(await must('post', `/api/v3/topics/${tid}`, { content: `Seeded reply number ${i + 1}.` }, i === 1 ? memberToken : token));
  const memberTopic = await must('post', '/api/v3/topics', { cid, title: 'A member topic for conformance', content: 'Written by a member.', tags: ['member'] }, memberToken);
  await must('put', `/api/v3/posts/${replies[0].pid}/vote`, { delta: 1 }, memberToken);
  await must('put', `/api/v3/posts/${replies[2].pid}/vote`, { delta: -1 }, memberToken);
  await must('put', `/api/v3/posts/${memberTopic.mainPid ?? memberTopic.pid}/vote`, { delta: 1 });
  const victimTopic = await must('post', '/api/v3/topics', { cid, title: 'A topic the run deletes', content: 'To be deleted.' });
  const victimReply = await must('post', `/api/v3/topics/${tid}`, { content: 'A reply the run deletes.' });
  const victimCategory = await must('post', '/api/v3/categories', { name: 'To be deleted' });
  // Topic tools: PUT /topics/{tid}/move goes to another category, PUT /posts/{pid}/move to another topic.
  const moveCategory = await must('post', '/api/v3/categories', { name: 'Moved here' });
  const moveTarget = await must('post', '/api/v3/topics', { cid, title: 'A topic posts move into', content: 'Posts are moved here.' });
  // Topic events 1 and 2 of the seeded topic (DELETE /topics/{tid}/events/{eventId} removes the first, NodeBB's example id).
  await must('put', `/api/v3/topics/${tid}/lock`);
  await must('delete', `/api/v3/topics/${tid}/lock`);
  // The member's reply and vote notified the administrator (off the request path: wait for it).
  let nid;
  for (let i = 0; i < 50 && !nid; i++) {
    nid = (await must('get', '/api/v3/notifications')).unread?.[0]?.nid;
    if (!nid) await new Promise((r) => setTimeout(r, 100));
  }
  // Terms of use (GET /api/tos answers 404 while there are none).
  await must('put', '/api/v3/admin/settings/termsOfUse', { value: 'Be **kind** to each other.' });
  // A chat room of the administrator and the member, with one message (the chats operations).
  await must('put', '/api/v3/admin/settings/chatMessageDelay', { value: '0' });
  const room = await must('post', '/api/v3/chats', { uids: [member.uid] });
  const message = await must('post', `/api/v3/chats/${room.roomId}`, { message: 'A seeded chat message.' });
  // A public room (PUT /chats/sort orders the public rooms).
  const publicRoom = await must('post', '/api/v3/chats', { uids: [], roomName: 'Lobby', type: 'public' });
  // The post queue: the spare member (no posts yet) writes three topics that wait (accept,
  // remove, edit and notify act on one each); the member's reply gets a history of two edits.
  await must('put', '/api/v3/admin/settings/postQueue', { value: '1' });
  const spareToken = (await must('post', `/api/v3/users/${spare.uid}/tokens`, {})).token;
  const queued = [];
  for (let i = 0; i < 3; i++) queued.push((await must('post', '/api/v3/topics', { cid, title: `A queued topic ${i + 1}`, content: 'Waiting for a moderator.' }, spareToken)).id);
  await must('put', '/api/v3/admin/settings/postQueue', { value: '0' });
  for (const content of ['Seeded reply number 2, edited once.', 'Seeded reply number 2, edited twice.']) await must('put', `/api/v3/posts/${replies[1].pid}`, { content });
  const diffTs = (await must('get', `/api/v3/posts/${replies[1].pid}/diffs`)).timestamps[1];
  // Two thumbnails on the seeded topic: DELETE …/thumbs removes one, PUT …/thumbs/order orders the other.
  await must('put', '/api/v3/admin/settings/allowTopicsThumbnail', { value: '1' });
  for (let i = 0; i < 2; i++) await must('post', `/api/v3/topics/${tid}/thumbs`, pngForm(`thumb-${i}.png`, i));
  const thumbs = (await must('get', `/api/v3/topics/${tid}/thumbs?thumbsOnly=1`)).map((t) => t.path);
  // Flags: one of the member's reply (read, updated, deleted), one of the member with a note
  // (its report rescinded, a note added, the seeded note deleted by its time).
  const flags = [];
  flags.push((await must('post', '/api/v3/flags', { type: 'post', id: replies[1].pid, reason: 'Spam' })).flagId);
  flags.push((await must('post', '/api/v3/flags', { type: 'user', id: member.uid, reason: 'Offensive' })).flagId);
  const noteDatetime = (await must('post', `/api/v3/flags/${flags[1]}/notes`, { note: 'Seeded note.' })).notes[0].datetime;
  // An export of the member's posts, made by the server's job, for GET /users/{uid}/exports/{type}.
  if ((await call('post', `/api/v3/users/${member.uid}/exports/posts`, {})).status !== 202) throw new Error('seeding: the export was not queued');
  for (let i = 0; i < 150 && (await call('head', `/api/v3/users/${member.uid}/exports/posts`)).status !== 204; i++) await new Promise((r) => setTimeout(r, 200));
  // Groups, under NodeBB's example slugs: the member is added to and removed from a public one,
  // made an owner of another; the member and the spare ask to join a private one (one accepted,
  // one rejected); the member is invited (the administrator accepts for them) and the spare's
  // invitation rescinded; one is updated and deleted.
  for (const [name, extra] of [['Test Group', { private: 0 }], ['Ownership Only', { private: 0 }], ['Private Group', { private: 1 }], ['Invitations Only', { private: 1 }]]) await must('post', '/api/v3/groups/', { name, ...extra });
  await must('put', `/api/v3/groups/ownership-only/membership/${member.uid}`);
  await must('put', `/api/v3/groups/private-group/membership/${member.uid}`, undefined, memberToken);
  await must('put', `/api/v3/groups/private-group/membership/${spare.uid}`, undefined, spareToken);
  await must('post', `/api/v3/groups/invitations-only/invites/${spare.uid}`);
  // A session (DELETE /users/{uid}/sessions/{uuid}: a login through the site form) and a token of
  // a member of their own, the keeper: the member is banned and changes password meanwhile, and
  // both end every session and token.
  const keeper = await must('post', '/api/v3/users', { username: 'keeper', email: 'keeper@example.com', password: admin.password });
  const guest = await fetch(`${base}/api/config`);
  const guestCookie = guest.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { csrf_token: guestCsrf } = await guest.json();
  const memberLogin = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: guestCookie, 'x-csrf-token': guestCsrf },
    body: JSON.stringify({ username: 'keeper', password: admin.password }),
  });
  if (memberLogin.status !== 200) throw new Error(`seeding: the keeper's login answered ${memberLogin.status}`);
  const sessionUuid = (await must('get', `/api/user/${keeper.userslug}/sessions`)).sessions[0].uuid;
  const revokedToken = (await must('post', `/api/v3/users/${keeper.uid}/tokens`, { description: 'conformance' })).token;
  // A second one for the admin's DELETE /admin/tokens/{token} (each token is revoked once).
  const adminRevokedToken = (await must('post', `/api/v3/users/${keeper.uid}/tokens`, { description: 'conformance (admin)' })).token;
  // A third for POST /admin/tokens/{token}/roll (it runs after the DELETE of the second).
  const adminRolledToken = (await must('post', `/api/v3/users/${keeper.uid}/tokens`, { description: 'conformance (roll)' })).token;
  // Two members for the admin's DELETE /users (NodeBB's example uids would be the seeded ones).
  const doomed = [];
  for (const name of ['doomed-one', 'doomed-two']) doomed.push((await must('post', '/api/v3/users', { username: name, email: `${name}@example.com`, password: admin.password })).uid);
  // An uploaded file for the admin's DELETE /files.
  const uploadUrl = (await must('post', '/api/post/upload', pngForm('deleted-by-path.png', 1))).images[0].url;
  return {
    adminRolledToken,
    uploadUrl,
    doomed,
    keeper: { uid: keeper.uid },
    sessionUuid,
    revokedToken,
    adminRevokedToken,
    leaver: { uid: leaver.uid },
    thumbs,
    flags,
    noteDatetime,
    publicRoomId: publicRoom.roomId,
    spare: { uid: spare.uid },
    queued,
    diffTs,
    roomId: room.roomId,
    mid: message.mid,
    nid,
    cid,
    tid,
    pid: replies[1].pid, // the member's reply: the administrator may vote on it
    uid: member.uid,
    userslug: member.userslug,
    slug: topic.slug ?? String(tid),
    tag: 'nodebb',
    victim: { uid: victim.uid, tid: victimTopic.tid, pid: victimReply.pid, cid: victimCategory.cid },
    moveTo: { cid: moveCategory.cid, tid: moveTarget.tid },
  };
}

// ---------------------------------------------------------------- calling each operation

// Deleting the entity itself (topic, post, member, category) acts on a seeded spare one, so the
// later calls still find the main ones; soft delete and restore (…/state) run on the main ones
// in NodeBB's document order (delete, then restore), as NodeBB's own test does.
const PURGE = /^\/(topics|posts|users|categories)\/\{[a-z]+\}$/;
function paramValue(name, op, ids) {
  const pick = (key) => (op.method === 'delete' && PURGE.test(op.path) ? ids.victim[key] : ids[key]);
  switch (name) {
    case 'tid':
    case 'topic_id':
      return pick('tid');
    case 'pid':
      return pick('pid');
    case 'cid':
    case 'category_id':
      return pick('cid');
    case 'uid':
      if (op.path.startsWith('/chats/') && op.path.includes('/owners/')) return 1;
      // NodeBB lets a member send invitations only as themself: the administrator (uid 1) invites.
      if (op.path === '/users/{uid}/invites') return 1;
      // The groups one may invite into and one's own address are asked by the administrator of themself.
      if (op.path === '/users/{uid}/invites/groups' || op.path === '/users/{uid}/emails/{email}') return 1;
      // DELETE /users/{uid}/content purges a member's topics and replies: the leaver's (none), before their account goes.
      if (op.method === 'delete' && op.path === '/users/{uid}/content') return ids.leaver.uid;
      if (op.method === 'delete' && op.path === '/users/{uid}/account') return ids.leaver.uid;
      if (op.method === 'delete' && /^\/users\/\{uid\}\/(sessions|tokens)\//.test(op.path)) return ids.keeper.uid;
      // A group's request is rejected and its invitation rescinded for the spare (the member's are accepted).
      if (op.method === 'delete' && /^\/groups\/\{slug\}\/(pending|invites)\/\{uid\}$/.test(op.path)) return ids.spare.uid;
      return pick('uid');
    case 'userslug':
    case 'username':
      return ids.userslug;
    case 'slug':
      return op.path.includes('/category/') ? 'conformance' : op.path.includes('/topic/') ? ids.slug.replace(/^\d+\//, '') : undefined;
    case 'tag':
      return ids.tag;
    case 'privilege':
      return 'groups:find';
    case 'setting':
      return 'postDelay';
    case 'nid':
      return ids.nid;
    case 'roomId':
    case 'roomid':
      return ids.roomId;
    case 'mid':
      return ids.mid;
    case 'id':
      if (op.path.startsWith('/posts/queue/')) return op.path.endsWith('/notify') || op.method === 'put' ? ids.queued[2] : op.method === 'delete' ? ids.queued[1] : ids.queued[0];
      return op.path.includes('/post-queue/') ? ids.queued[2] : undefined;
    case 'flagId':
      return op.path.includes('/report') || op.path.includes('/notes') ? ids.flags[1] : ids.flags[0];
    case 'datetime':
      return op.path.startsWith('/flags/') ? ids.noteDatetime : undefined;
    case 'timestamp':
      return op.path.includes('/diffs/') ? ids.diffTs : undefined;
    case 'index':
      return op.path.includes('/chats/') ? 1 : undefined;
    case 'uuid':
      return op.path.includes('/sessions/') ? ids.sessionUuid : undefined;
    case 'email':
      return op.path === '/users/{uid}/emails/{email}' ? admin.email : undefined;
    case 'pluginId':
      return 'nodebb-plugin-emoji';
    case 'token':
      if (op.path === '/admin/tokens/{token}/roll') return ids.adminRolledToken;
      if (op.path.startsWith('/admin/tokens/')) return ids.adminRevokedToken;
      return op.path.includes('/tokens/') ? ids.revokedToken : undefined;
    default:
      return undefined;
  }
}

/** Bodies whose documented examples cannot work on a fresh forum (credentials, setting values). */
const BODIES = {
  'post /utilities/login': () => ({ username: admin.username, password: admin.password }),
  'put /users/{uid}/password': () => ({ currentPassword: admin.password, newPassword: 'Another-Strong-Passphrase-42' }),
  'put /admin/settings/{setting}': () => ({ value: '0' }),
  'put /categories/{cid}/privileges/{privilege}': () => ({ member: 'registered-users' }),
  'delete /categories/{cid}/privileges/{privilege}': () => ({ member: 'registered-users' }),
  // Chats: the spare member joins and leaves the seeded room; the room's notification setting.
  'post /chats/{roomId}/users': () => ({ uids: [ids.spare.uid] }),
  'delete /chats/{roomId}/users': () => ({ uids: [ids.spare.uid] }),
  // Topic thumbnails: an upload (multipart, as NodeBB documents), then the seeded ones by path.
  'post /topics/{tid}/thumbs': () => pngForm('thumb.png'),
  'delete /topics/{tid}/thumbs': () => ({ path: ids.thumbs[0] }),
  'put /topics/{tid}/thumbs/order': () => ({ path: ids.thumbs[1], order: 0 }),
  'put /chats/{roomId}/watch': () => ({ value: 1 }),
  'put /chats/sort': () => ({ roomIds: [ids.publicRoomId], scores: [0] }),
  // NodeBB's example expiry is in 2020: a past expiry is refused (as NodeBB's setPinExpiry does).
  'put /topics/{tid}/pin': () => ({ expiry: Date.now() + 86_400_000 }),
  'put /topics/{tid}/move': () => ({ cid: ids.moveTo.cid }),
  'put /posts/{pid}/move': () => ({ tid: ids.moveTo.tid }),
  'post /users/reauth/verify': () => ({ password: admin.password }),
  'put /admin/plugins/{pluginId}/active': () => ({ active: true }),
  'delete /files/': () => ({ path: ids.uploadUrl }),
  'delete /users/': () => ({ uids: ids.doomed }),
};

/**
 * Where NodeBB's document contradicts what NodeBB itself answers, Palaver answers as NodeBB does
 * (integrations are written against the real answers). Each is listed in docs/api.md; it is
 * reported, not counted as conforming or failing, and it stops being a deviation the moment it
 * conforms.
 */
const DEVIATIONS = {
  'GET /api/groups/{slug}': "NodeBB marks each of the group's members isOwner (Groups.getOwnersAndMembers); the document's UserObjectSlim lists no such field",
  'GET /api/v3/chats/': "NodeBB answers { rooms, nextStart } (src/api/chats.js list); the document describes one room",
  'GET /api/v3/chats/search': "NodeBB answers { rooms } of matching rooms; the document describes one room",
  'GET /api/v3/chats/{roomId}': "NodeBB answers the loaded room with its messages array; the document merges one message's fields into the room and lists no messages",
  'PUT /api/v3/chats/{roomId}': 'as GET /chats/{roomId} (NodeBB answers the renamed room as loaded)',
  'PUT /api/v3/chats/{roomId}/state': 'as GET /chats/{roomId} (NodeBB answers the room as loaded)',
  'DELETE /api/v3/chats/{roomId}/state': 'as GET /chats/{roomId} (NodeBB answers the room as loaded)',
  // Palaver's choices, not NodeBB's answers (docs/api.md): the plugin set is built in, and uploads have no folders.
  'POST /api/v3/admin/plugins/{pluginId}': 'Palaver runs only its built-in plugins: install answers 400 error:plugins-built-in-only',
  'DELETE /api/v3/admin/plugins/{pluginId}': 'Palaver runs only its built-in plugins: uninstall answers 400 error:plugins-built-in-only',
  'PUT /api/v3/admin/plugins/{pluginId}/upgrade': 'Palaver runs only its built-in plugins: upgrade answers 400 error:plugins-built-in-only',
  'PUT /api/v3/files/folder': 'uploads are stored by content hash without folders: 400 error:upload-folders-unsupported',
};

/**
 * Deviations of single fields (docs/api.md): `routes` matches "METHOD /path" of the operations,
 * `diff` the difference as reported. A route whose every difference is listed here is a documented
 * deviation; any other difference still fails it.
 */
const ACCOUNT_PAGES = /^GET \/api\/(user\/\{userslug\}(\/.*)?|self)$/;
const FIELD_DEVIATIONS = [
  // People and admin pages (issue 53, part 2).
  {
    routes: /^GET \/api\//,
    diff: /^body\.pagination\.(prev|next|first|last)\.qs: not in NodeBB's schema$/,
    reason: "pagination: NodeBB's pagination.create gives prev, next, first and last their `qs` too; the document lists it only for the pages",
  },
  { routes: ACCOUNT_PAGES, diff: /^body\.profileviews: missing$/, reason: 'profileviews: Palaver does not count profile views' },
  {
    routes: ACCOUNT_PAGES,
    diff: /^body\.(groups|selectedGroup)\[\d+\]\.(members|membersNextStart|pending|invited|isMember|isPending|isInvited|isOwner): missing$/,
    reason: "groups: NodeBB's groups.getUserGroups answers GroupDataObjects (no members, pending, invited or the reader's flags); the document lists GroupFullObject",
  },
  // Topics, posts, categories, tags, search, notifications (issue 53, part 1).
  {
    routes: /^GET \/api\//,
    diff: /^body\.(title|breadcrumbs): not in NodeBB's schema$/,
    reason: 'every Palaver page carries its title and breadcrumbs (the heading and trail the client shows), where NodeBB documents them or not',
  },
  {
    routes: /^GET \/api\/admin\/dashboard$/,
    diff: /^body\.(graph|online|topTopics|system|stats\[\d+\]\.set): not in NodeBB's schema$/,
    reason: "Palaver's own dashboard panels (the graph, who is online, top topics, the system) and each stats row's metric",
  },
  {
    routes: /^GET \/api\/search$/,
    diff: /^body\.(users|tags|categories|allCategories|expandSearch): not in NodeBB's schema$/,
    reason: "NodeBB's search controller answers them (the matches of a search in members, tags or categories, the category filter's choices and whether the form opens expanded); the document leaves them out",
  },
  {
    routes: /^GET \/api\/category\//,
    diff: /^body\.privileges\.uid: missing$/,
    reason: "the category page's privileges leave out the reader's uid (it is in loggedInUser): members who see a category alike then share its rendered frame",
  },
  {
    routes: /^GET \/api\//,
    diff: /^body\.handleFull: missing$/,
    reason: 'the fediverse handle of a category: Palaver has no federation (NodeBB too leaves it out when the fediverse may not read the category)',
  },
];

/** The reasons of the field deviations that explain all of a route's differences (none when one is left unexplained). */
function fieldDeviations(name, differences) {
  const rules = FIELD_DEVIATIONS.filter((d) => d.routes.test(name));
  const reasons = new Set();
  for (const diff of differences) {
    const rule = rules.find((d) => d.diff.test(diff.trim()));
    if (!rule) return null;
    reasons.add(rule.reason);
  }
  return [...reasons];
}

const ID_FIELDS = { cid: 'cid', tid: 'tid', pid: 'pid', uid: 'uid', toPid: 'pid' };
function buildRequest(op, ids) {
  let url = op.url;
  const query = new URLSearchParams();
  for (const param of op.op.parameters ?? []) {
    const value = paramValue(param.name, op, ids) ?? param.example ?? param.schema?.example;
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(String(value ?? 1)));
    else if (param.in === 'query' && param.required && value !== undefined) query.set(param.name, String(value));
  }
  if (query.size) url += `?${query}`;
  let body;
  const schema = op.op.requestBody?.content?.['application/json']?.schema;
  const fixed = BODIES[`${op.method} ${op.path}`];
  if (fixed) body = fixed();
  else if (schema) {
    body = {};
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (ID_FIELDS[name] && ids[ID_FIELDS[name]] !== undefined) body[name] = ids[ID_FIELDS[name]];
      else if (prop.example !== undefined) body[name] = prop.example;
    }
  }
  return { url, body };
}

/** Palaver's own route list (its OpenAPI document), as "METHOD /path/{}" keys. */
async function palaverRoutes() {
  const r = await call('get', '/api/v3/openapi.json');
  const keys = new Set();
  for (const [p, item] of Object.entries(r.json?.paths ?? {})) {
    for (const m of METHODS) if (item[m]) keys.add(`${m} ${p.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '')}`);
  }
  return keys;
}

// ---------------------------------------------------------------- main

const all = [...operations('read.yaml').filter((o) => o.method === 'get'), ...operations('write.yaml')];
const documented = operations('read.yaml').length + operations('write.yaml').length;
const selected = all.filter((o) => !only || only.test(`${o.method.toUpperCase()} ${o.url}`));
// Reads first, then the writes in the documents' order (NodeBB's test runs them in that order).
selected.sort((a, b) => Number(a.method !== 'get') - Number(b.method !== 'get'));

try {
  await startServer();
  token = cli('token', 'create', '--uid', '1');
} catch (err) {
  console.error(`conformance: ${err.message}`);
  process.exit(1);
}
const ids = await seed();
const known = await palaverRoutes();

/** Pages NodeBB shows only to guests (a member is redirected, middleware.redirectToAccountIfLoggedIn): asked without a token. */
const AS_GUEST = new Set(['GET /api/login', 'GET /api/register']);

const results = [];
for (const o of selected) {
  const { url, body } = buildRequest(o, ids);
  let r;
  try {
    r = await call(o.method, url, body, AS_GUEST.has(`${o.method.toUpperCase()} ${o.url}`) ? '' : token);
  } catch (err) {
    r = { status: 0, text: String(err), json: undefined };
  }
  const key = `${o.method} ${o.url.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '')}`;
  // Served: Palaver documents the route, or it answered something other than "no such route".
  const served = known.has(key) || (r.status !== 404 && r.status !== 405 && r.status !== 0);
  const differences = [];
  if (served) {
    const responses = o.op.responses ?? {};
    const ok200 = responses['200'];
    if ((r.status === 302 || (r.status === 200 && r.xRedirect)) && responses['302']) {
      /* a documented redirect conforms (page data answers it as NodeBB's API does: 200 with X-Redirect) */
    } else if (!ok200) {
      if (!responses[String(r.status)]) differences.push(`HTTP ${r.status}, documented: ${Object.keys(responses).join(', ')}`);
    } else if (r.status !== 200) {
      differences.push(`HTTP ${r.status}: ${(r.json?.status?.message ?? r.text).slice(0, 160)}`);
    } else {
      const schema = ok200.content?.['application/json']?.schema;
      if (schema) {
        if (r.json === undefined) differences.push('not JSON');
        else compare(schema, r.json, 'body', differences);
      }
    }
  }
  results.push({ name: `${o.method.toUpperCase()} ${o.url}`, v3: o.url.startsWith('/api/v3'), served, differences, called: url });
}

const served = results.filter((r) => r.served);
const deviationOf = (r) => DEVIATIONS[r.name] ?? fieldDeviations(r.name, r.differences)?.join('; ');
const deviating = served.filter((r) => r.differences.length && deviationOf(r));
const failing = served.filter((r) => r.differences.length && !deviationOf(r));
for (const r of deviating) console.log(`≈ ${r.name}: documented deviation, ${deviationOf(r)}`);
for (const r of failing) {
  console.log(`✗ ${r.name}${verbose ? ` (${r.called})` : ''}`);
  for (const d of r.differences.slice(0, verbose ? 50 : 5)) console.log(`    ${d}`);
  if (!verbose && r.differences.length > 5) console.log(`    … ${r.differences.length - 5} more`);
}
const v3 = served.filter((r) => r.v3);
const v3Failing = failing.filter((r) => r.v3);
const v3Deviating = deviating.filter((r) => r.v3);
console.log(`NodeBB documents ${documented} operations (${all.length} callable: GET of the read API, every write operation)${only ? `; ${selected.length} selected by --only` : ''}`);
console.log(`/api/v3: ${v3.length} served, ${v3.length - v3Failing.length - v3Deviating.length} conform, ${v3Deviating.length} documented deviations, ${v3Failing.length} not`);
console.log(`/api/<page>: ${served.length - v3.length} served, ${served.length - v3.length - (failing.length - v3Failing.length) - (deviating.length - v3Deviating.length)} conform, ${failing.length - v3Failing.length} not`);
console.log(`conformance: ${served.length} served, ${served.length - failing.length - deviating.length} conform, ${deviating.length} documented deviations, ${failing.length} not`);
process.exitCode = v3Failing.length ? 1 : 0;
stop();
