import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';

let forum: TestForum;
let cid: number;
let client: HttpClient;

beforeAll(async () => {
  forum = await startTestForum({ settings: { postsPerPage: 50 } });
  cid = await makeCategory(forum.ctx, 'Sanitising');
  client = (await forum.loginAs()).client;
});
afterAll(async () => {
  await forum.close();
});

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<a href="#" onclick="alert(1)">click</a>',
  '<div onmouseover="alert(1)">hover</div>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](&#x6A;&#x61;vascript:alert(1))',
  '[click](jav&#x09;ascript:alert(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](vbscript:msgbox(1))',
  '<javascript:alert(1)>',
  '![img](javascript:alert(1))',
  '![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<style>body{display:none}</style>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '[link](https://example.com "title\\" onmouseover=\\"alert(1)")',
];

const SAFE_TAGS = new Set([
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'del',
  's',
  'a',
  'img',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'sup',
  'sub',
  'span',
]);

function decode(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&amp;/g, '&');
}

/** Every problem a rendered HTML fragment has: unknown tags, event handlers, script-capable URLs. */
function executable(html: string): string[] {
  const problems: string[] = [];
  for (const m of html.matchAll(/<\/?([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    const [tag, name, attrs] = m as unknown as [string, string, string];
    if (!SAFE_TAGS.has(name.toLowerCase())) problems.push(`tag ${tag}`);
    for (const a of attrs.matchAll(/([^\s=/"']+)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const attr = a[1]!.toLowerCase();
      const value = decode((a[2] ?? '').replace(/^["']|["']$/g, ''))
        .replace(/\s/g, '')
        .split('')
        .filter((ch) => ch.charCodeAt(0) > 31)
        .join('')
        .toLowerCase();
      if (attr.startsWith('on')) problems.push(`handler ${tag}`);
      if (!['href', 'src', 'title', 'alt', 'rel', 'class', 'width', 'height', 'style', 'start'].includes(attr)) problems.push(`attribute ${attr} in ${tag}`);
      if ((attr === 'href' || attr === 'src') && /^(javascript|data|vbscript):/.test(value)) problems.push(`url ${tag}`);
    }
  }
  return problems;
}

describe('sanitising', () => {
  it('the checker itself catches executable HTML', () => {
    expect(executable('<img src="x" onerror="alert(1)">')).not.toEqual([]);
    expect(executable('<a href="&#106;avascript:alert(1)">x</a>')).not.toEqual([]);
    expect(executable('<p>plain &lt;script&gt;</p>')).toEqual([]);
  });

  it('renders every XSS payload without executable content, in API answers and page data', async () => {
    const t = await postTopic(client, cid, { title: '<script>alert(1)</script> title', content: 'Payload topic for sanitising' });
    const pids: number[] = [];
    for (const payload of PAYLOADS) {
      const r = await postReply(client, t.tid, `Payload: ${payload}`);
      pids.push(r.pid);
      const api = await forum.client().get(`/api/v3/posts/${r.pid}`);
      expect(executable(api.body.response.content), payload).toEqual([]);
    }
    const page = await forum.client().get(`/api/topic/${t.slug}`);
    expect(page.body.title).not.toContain('<script');
    expect(page.body.titleRaw).toBe('<script>alert(1)</script> title');
    for (const post of page.body.posts as { pid: number; content: string }[]) {
      expect(executable(post.content), post.content).toEqual([]);
    }
    expect(page.body.posts.map((p: { pid: number }) => p.pid)).toEqual(expect.arrayContaining(pids));
    // The server-rendered document: no script element but the two JSON data blocks.
    const html = await forum.client().get(`/topic/${t.slug}`);
    // Only the document's own scripts: the embedded page data and config, and the client bundle when built.
    const scripts = html.text.match(/<script[^>]*>/gi) ?? [];
    // (and the topic's JSON-LD data block, whose JSON escapes every "<").
    expect(scripts.every((tag) => /id="(page-data|client-config)"|type="module" src="\/assets\/|type="application\/ld\+json"/.test(tag))).toBe(true);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html.text);
    expect(ld?.[1]).not.toMatch(/</);
    expect(html.text).not.toMatch(/<script>alert/i);
  });

  it('gives external links rel="nofollow ugc noopener" and leaves internal links alone', async () => {
    const t = await postTopic(client, cid, { content: '[out](https://example.com/page) and [in](/topic/1) and https://auto.example.org' });
    const html = (await forum.client().get(`/api/v3/posts/${t.mainPid}`)).body.response.content as string;
    expect(html).toContain('<a href="https://example.com/page" rel="nofollow ugc noopener">out</a>');
    expect(html).toContain('<a href="/topic/1">in</a>');
    expect(html).toContain('<a href="https://auto.example.org" rel="nofollow ugc noopener">');
  });

  it('keeps the language class of fenced code', async () => {
    const t = await postTopic(client, cid, { content: '```typescript\nconst x = 1;\n```' });
    const html = (await forum.client().get(`/api/v3/posts/${t.mainPid}`)).body.response.content as string;
    expect(html).toContain('<code class="language-typescript">');
    expect(executable(html)).toEqual([]);
  });

  it('reads never parse markdown: the stored HTML is what is served', async () => {
    const t = await postTopic(client, cid, { content: 'Rendered **once** only' });
    let calls = 0;
    forum.ctx.hooks.filter('filter:parse.post', 'counter', (d) => {
      calls += 1;
      return d;
    });
    await forum.client().get(`/api/topic/${t.slug}`);
    await forum.client().get(`/api/v3/posts/${t.mainPid}`);
    await forum.client().get('/api/recent');
    forum.ctx.hooks.unregisterPlugin('counter');
    expect(calls).toBe(0);
  });
});
