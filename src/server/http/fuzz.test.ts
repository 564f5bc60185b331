import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';

/**
 * Issue 17, defect 2: bad input never answers 5xx. Every operation of the forum's own
 * OpenAPI document gets wrong types, huge and non-finite numbers, NUL and lone surrogates,
 * 1 MB strings, 10,000-level nesting and empty bodies, as a guest, as an admin (bearer
 * token, so write paths are reached) and through a master token with a bad `_uid`. Runs on SQLite, and on PostgreSQL with DATABASE_URL.
 * Bounded: a fixed seed and a fixed number of runs per operation and identity.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 16);
const SEED = 17;

interface Operation {
  method: string;
  /** OpenAPI path, e.g. /api/v3/topics/{tid}. */
  path: string;
  params: string[];
  query: string[];
  bodyFields: string[] | null;
}

interface Sample {
  who: 'guest' | 'admin' | 'master';
  params: Record<string, string>;
  query: [string, string][];
  body: { type: string; text: string } | null;
}

interface Finding {
  op: string;
  status: number;
  sample: string;
}

type Doc = { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> };

/** The operations of the document, with the names of their parameters and body fields. */
function operations(doc: Doc): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const schema = op.requestBody?.content['application/json']?.schema;
      out.push({ method: method.toUpperCase(), path, params, query, bodyFields: op.requestBody ? Object.keys(schema?.properties ?? {}) : null });
    }
  }
  return out;
}

const MB_STRING = 'x'.repeat(1_100_000);
const DEEP_ARRAY = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;

/** Raw path or query values (already percent-encoded where they must be). */
const BAD_SEGMENTS = [
  '9007199254740993',
  '9007199254740992',
  '99999999999999999999999',
  '2147483648',
  '2147483647',
  '-2147483649',
  '1e309',
  '1e308',
  'Infinity',
  '-Infinity',
  'NaN',
  '-1',
  '0',
  '1.5',
  '0x10',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%F0%9F%98',
  '%',
  'null',
  '%20',
  'x'.repeat(400),
];

/** JSON texts of values, so that 1e309 and 9007199254740993 reach the server as sent. */
const BAD_JSON_VALUES = [
  '1e309',
  '-1e309',
  '1e308',
  '9007199254740993',
  '9007199254740992',
  '2147483648',
  '-2147483649',
  '0',
  '-1',
  '1.5',
  'null',
  'true',
  '[]',
  '{}',
  '[1,2]',
  '"Infinity"',
  '"NaN"',
  '"1e309"',
  '"9007199254740993"',
  '"\\u0000"',
  '"a\\u0000b"',
  '["\\u0000"]',
  '{"\\u0000":1}',
  '"\\ud800"',
  '"x\\udfffy"',
  '""',
];

/** Percent-encodes a string; a lone surrogate (which encodeURIComponent refuses) becomes its raw UTF-8 bytes. */
function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
  }
}

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...BAD_SEGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeSegment) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

const jsonValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...BAD_JSON_VALUES) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.double().map((d) => (Number.isFinite(d) ? String(d) : '1e999')) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT, JSON.stringify(MB_STRING.slice(0, 900_000))) },
);

/** A JSON object text with some of the operation's fields (and some it does not know). */
function objectText(fields: string[]) {
  const keys = [...fields, '_uid', 'cid', 'tid', 'uid', 'until', 'toPid', 'page'];
  return fc.array(fc.tuple(fc.constantFrom(...keys), jsonValue), { maxLength: 6 }).map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
}

function bodyArb(op: Operation): fc.Arbitrary<Sample['body']> {
  if (op.method === 'GET' || op.method === 'HEAD') return fc.constant(null);
  const json = (text: fc.Arbitrary<string>) => text.map((t) => ({ type: 'application/json', text: t }));
  return fc.oneof(
    { weight: 6, arbitrary: json(objectText(op.bodyFields ?? [])) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: json(fc.constantFrom('', 'null', '{', '[]', '"\\u0000"', DEEP_ARRAY, DEEP_OBJECT, `{"content":"${MB_STRING}"}`)) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...(op.bodyFields?.length ? op.bodyFields : ['x'])), segment).map(([k, v]) => ({ type: 'application/x-www-form-urlencoded', text: `${k}=${v}` })),
    },
    { weight: 1, arbitrary: fc.constantFrom({ type: 'text/plain', text: 'a\u0000b' }, { type: 'application/json; charset=latin1', text: '{}' }) },
  );
}

export interface FuzzFixtures {
  /** Valid ids per parameter name, so some requests get past the lookup. */
  ids: Record<string, string>;
  adminToken: string;
  /** A master token: acts as the member its `_uid` names. */
  masterToken: string;
  guestCookie: string;
  guestCsrf: string;
}

function sampleArb(op: Operation, fx: FuzzFixtures): fc.Arbitrary<Sample> {
  const param = (name: string) => (fx.ids[name] ? fc.oneof({ weight: 3, arbitrary: segment }, { weight: 1, arbitrary: fc.constant(fx.ids[name]!) }) : segment);
  const params = fc.record(Object.fromEntries(op.params.map((n) => [n, param(n)])) as Record<string, fc.Arbitrary<string>>);
  const queryKeys = [...op.query, 'page', 'section', 'term', '_uid'];
  const query = fc.array(fc.tuple(fc.constantFrom(...queryKeys), segment), { maxLength: 3 });
  return fc.record({ who: fc.constantFrom<Sample['who']>('guest', 'admin', 'master'), params, query, body: bodyArb(op) });
}

/** Sends one sample; a bad URL the client cannot even send counts as not sent. */
async function send(forum: TestForum, op: Operation, s: Sample, fx: FuzzFixtures): Promise<number> {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => s.params[name] ?? '1');
  const qs = s.query.map(([k, v]) => `${k}=${v}`).join('&');
  const headers: Record<string, string> = {};
  if (s.who !== 'guest') headers.authorization = `Bearer ${s.who === 'admin' ? fx.adminToken : fx.masterToken}`;
  else {
    headers.cookie = fx.guestCookie;
    headers['x-csrf-token'] = fx.guestCsrf;
  }
  if (s.body) headers['content-type'] = s.body.type;
  const res = await fetch(`${forum.baseUrl}${path}${qs ? `?${qs}` : ''}`, { method: op.method, headers, body: s.body?.text, redirect: 'manual' });
  await res.arrayBuffer();
  return res.status;
}

/** Makes the things valid ids point at: a category, a topic with a reply, a second member. */
async function fixtures(forum: TestForum): Promise<FuzzFixtures> {
  const admin = await forum.createUser({ admin: true });
  const member = await forum.createUser();
  const adminToken = await forum.ctx.auth.createToken(admin.uid, 'fuzz');
  const c = forum.client();
  c.bearer = adminToken;
  const cat = await c.post('/api/v3/categories', { name: 'Fuzz' });
  const cid = cat.body.response.cid as number;
  const topic = await c.post('/api/v3/topics', { cid, title: 'Fuzzed topic', content: 'Fuzzed content here', tags: ['fuzz'] });
  const tid = topic.body.response.tid as number;
  const reply = await c.post(`/api/v3/topics/${tid}`, { content: 'A reply to fuzz' });
  const guest = forum.client();
  const csrf = await guest.refreshCsrf();
  return {
    ids: { cid: String(cid), tid: String(tid), pid: String(reply.body.response.pid), uid: String(member.uid), userslug: member.userslug, tag: 'fuzz', slug: 'fuzzed-topic', index: '1', privilege: 'find', setting: 'title', status: 'away' },
    adminToken,
    masterToken: await forum.ctx.auth.createToken(0, 'fuzz master'),
    guestCookie: [...guest.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    guestCsrf: csrf,
  };
}

describe('fuzz: bad input never answers 5xx', () => {
  let forum: TestForum;
  const logged: { level: number; msg?: string; err?: { message?: string; stack?: string } }[] = [];

  beforeAll(async () => {
    forum = await startTestForum({
      logger: { level: 'warn', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } },
    });
  });
  afterAll(async () => forum?.close());

  it('answers every operation of the OpenAPI document below 500, and logs no error for them', { timeout: 240_000 }, async () => {
    const fx = await fixtures(forum);
    const ops = operations((await forum.client().get('/api/v3/openapi.json')).body as Doc);
    expect(ops.length).toBeGreaterThan(90);
    const findings: Finding[] = [];
    const statuses = new Map<number, number>();
    for (const [i, op] of ops.entries()) {
      await fc.assert(
        fc.asyncProperty(sampleArb(op, fx), async (s) => {
          const errorsBefore = logged.filter((l) => l.level >= 50).length;
          const status = await send(forum, op, s, fx);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const newErrors = logged.filter((l) => l.level >= 50).slice(errorsBefore);
          if (status >= 500 || newErrors.length > 0) {
            const logs = newErrors.map((l) => `${l.msg}: ${l.err?.message ?? ''}`).join('; ');
            findings.push({ op: `${op.method} ${op.path}`, status, sample: `${JSON.stringify(s).slice(0, 300)} ${logs}` });
          }
        }),
        { seed: SEED + i, numRuns: RUNS * 2 },
      );
    }
    // The admin's token still works, so the write paths were reached to the end.
    const c = forum.client();
    c.bearer = fx.adminToken;
    expect((await c.get('/api/v3/categories')).status).toBe(200);
    const summary = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ');
    console.info(`fuzz: ${ops.length} operations, answers ${summary}`);
    const byRoute = [...new Set(findings.map((f) => `${f.status} ${f.op}`))];
    expect({ byRoute, first: findings.slice(0, 8) }).toEqual({ byRoute: [], first: [] });
    const errors = logged.filter((l) => l.level >= 50).map((l) => `${l.msg}: ${l.err?.stack?.split('\n').slice(0, 6).join(' | ') ?? ''}`);
    expect(errors).toEqual([]);
  });

  it('names the real path parameters of page routes in the OpenAPI document', async () => {
    const doc = (await forum.client().get('/api/v3/openapi.json')).body as { paths: Record<string, { get: { parameters?: { in: string; name: string }[] } }> };
    const names = (path: string) => (doc.paths[path]!.get.parameters ?? []).map((p) => `${p.in}:${p.name}`);
    expect(names('/api/topic/{tid}/{slug}/{index}')).toEqual(['path:tid', 'path:slug', 'path:index']);
    expect(names('/user/{userslug}')).toEqual(['path:userslug']);
    expect(names('/api/recent')).toEqual([]);
  });

  it('stores a lone surrogate as U+FFFD on both databases (PostgreSQL does not refuse it; SQLite stored bytes that read back as three)', async () => {
    const fx = await fixtures(forum);
    const res = await fetch(`${forum.baseUrl}/api/v3/topics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': 'application/json' },
      body: `{"cid":${fx.ids.cid},"title":"Lone \\ud800 surrogate","content":"Some content \\udfff here"}`,
    });
    expect(res.status).toBe(200);
    const tid = ((await res.json()) as { response: { tid: number } }).response.tid;
    const topic = await forum.client().get(`/api/topic/${tid}`);
    expect(topic.body.titleRaw ?? topic.body.title).toBe('Lone \ufffd surrogate');
  });

  it('answers the cases the issue names with 400 or 404', async () => {
    const fx = await fixtures(forum);
    const admin = forum.client();
    admin.bearer = fx.adminToken;
    const guest = forum.client();
    expect((await guest.get('/topic/99999999999999999999999')).status).toBe(404);
    expect((await guest.get('/api/topic/2147483648')).status).toBe(404);
    expect((await guest.get('/api/category/9007199254740993')).status).toBe(404);
    expect((await guest.get('/api/post/1e309')).status).toBe(404);
    expect((await guest.get('/api/user/%00')).status).toBe(404);
    const deep = await fetch(`${forum.baseUrl}/api/v3/ping`, { method: 'POST', headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': 'application/json' }, body: DEEP_OBJECT });
    expect(deep.status).toBe(400);
    const v3 = await guest.get('/api/v3/topics/9007199254740993');
    expect(v3.status).toBe(400);
    expect(v3.body.status.code).toBe('bad-request');
    expect((await guest.get('/api/v3/users/2147483648')).status).toBe(400);
    expect((await guest.get('/api/v3/posts/Infinity')).status).toBe(400);
    expect((await guest.get('/api/v3/categories/1e309/topics?page=Infinity')).status).toBe(400);
    const raw = (path: string, text: string) =>
      fetch(`${forum.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': 'application/json' }, body: text });
    for (const [path, text] of [
      ['/api/v3/topics', '{"cid":1e308,"title":"A title here","content":"Some content here"}'],
      ['/api/v3/topics', '{"cid":1e309,"title":"A title here","content":"Some content here"}'],
      [`/api/v3/topics/${fx.ids.tid}`, '{"content":"A reply here","toPid":9007199254740992}'],
      ['/api/v3/topics', `{"cid":${fx.ids.cid},"title":"A\\u0000title","content":"Some content here"}`],
    ] as const) {
      const res = await raw(path, text);
      expect([res.status, (await res.json()).status.message]).toEqual([400, expect.any(String)]);
    }
    expect((await admin.put(`/api/v3/users/${fx.ids.uid}/ban`, { until: 1e308 })).body.status.code).toBe('bad-request');
    const master = await fetch(`${forum.baseUrl}/api/v3/users/${fx.ids.uid}?_uid=2147483648`, { headers: { authorization: `Bearer ${fx.masterToken}` } });
    expect(master.status).toBe(400);
    const login = await guest.post('/login', { username: 'admin\u0000', password: 'x' });
    expect([login.status, login.body.status?.message ?? login.body]).toEqual([400, expect.anything()]);
    const register = await guest.post('/register', { username: 'nul\u0000name', email: 'a@example.com', password: 'Correct-Horse-42', 'password-confirm': 'Correct-Horse-42' });
    expect(register.status).toBe(400);
  });
});
