/**
 * A stand-in server for client tests: serves the built client (dist/client), the SSR bundle
 * (dist/ssr) and fixture page data, the way src/server will. Also a reference for how the
 * HTML document is assembled. Build first (npm run build; the tests do it themselves), then
 * run: node --import tsx tests/e2e/preview-server.ts [port]   Env: RP=/forum, GUEST=1.
 * A request with the cookie guest=1 is served as a visitor.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Server as SocketServer } from 'socket.io';
import { clientConfig, loggedIn, pageFor } from './fixtures/pages.js';
import type { ClientConfig, PageBase } from '../../src/shared/types.js';

const root = join(import.meta.dirname, '../..');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.map': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' };

interface Ssr {
  renderPage(page: PageBase, config: ClientConfig): string;
  renderHead(page: PageBase, config: ClientConfig): string;
  htmlAttributes(page: PageBase, config: ClientConfig): Record<string, string>;
  setTranslations(ns: Record<string, Record<string, string>>, lang?: string): void;
  NAMESPACES: readonly string[];
}

/** Loads the SSR bundle and manifest; throws a clear message when the build is missing. */
async function loadBuild() {
  const ssrFile = join(root, 'dist/ssr/entry-server.js');
  const manifestFile = join(root, 'dist/client/.vite/manifest.json');
  if (!existsSync(ssrFile) || !existsSync(manifestFile)) throw new Error('Build the client first: vite build && vite build --ssr src/client/entry-server.tsx');
  const ssr = (await import(pathToFileURL(ssrFile).href)) as Ssr;
  const langDir = join(root, 'public/language/en-GB');
  ssr.setTranslations(Object.fromEntries(readdirSync(langDir).filter((f) => f.endsWith('.json')).map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(langDir, f), 'utf8'))])));
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; css?: string[] }>;
  return { ssr, entry: manifest['src/client/main.tsx']! };
}

/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function documentHtml(build: Awaited<ReturnType<typeof loadBuild>>, RP: string, page: PageBase, config: ClientConfig): string {
  const { ssr, entry } = build;
  const attrs = Object.entries(ssr.htmlAttributes(page, config)).map(([k, v]) => `${k}="${v}"`).join(' ');
  const css = (entry.css ?? []).map((f) => `<link rel="stylesheet" href="${RP}/${f}">`).join('\n');
  return `<!doctype html>
<html ${attrs}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${css}
${ssr.renderHead(page, config)}
<script type="module" src="${RP}/${entry.file}"></script>
</head>
<body class="${page.bodyClass}">
<div id="app">${ssr.renderPage(page, config)}</div>
<script id="page-data" type="application/json">${scriptJson(page)}</script>
<script id="client-config" type="application/json">${scriptJson(config)}</script>
</body>
</html>`;
}

function send(res: ServerResponse, status: number, body: string | Buffer, type = 'text/html; charset=utf-8', headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

function file(res: ServerResponse, path: string) {
  const safe = normalize(path);
  if (!existsSync(safe)) return send(res, 404, 'not found', 'text/plain');
  send(res, 200, readFileSync(safe), TYPES[extname(safe)] ?? 'application/octet-stream');
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let data = '';
  for await (const chunk of req) data += chunk;
  try {
    return JSON.parse(data || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

const ok = (response: unknown) => JSON.stringify({ status: { code: 'ok', message: 'OK' }, response });

/** Starts the stand-in server; resolves once it listens. */
export async function startPreviewServer(port: number, RP = ''): Promise<{ url: string; close: () => Promise<void> }> {
  const build = await loadBuild();
  const server: Server = createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (RP && !url.pathname.startsWith(RP)) return send(res, 404, 'outside relative path', 'text/plain');
    const path = url.pathname.slice(RP.length) || '/';
    const me = process.env.GUEST || req.headers.cookie?.includes('guest=1') ? null : loggedIn();
    const config = clientConfig(me, RP);
    if (path.startsWith('/assets/')) return file(res, join(root, 'dist/client', path));
    if (path === '/service-worker.js') return file(res, join(root, 'dist/client/service-worker.js'));
    if (path.startsWith('/language/')) return file(res, join(root, 'public', path));
    if (path === '/api/config') return send(res, 200, JSON.stringify(config), 'application/json');
    if (path.startsWith('/api/v3/')) {
      const input = await body(req);
      if (path === '/api/v3/posts/preview') return send(res, 200, ok({ html: `<p>${String(input.content ?? '').replace(/</g, '&lt;')}</p>` }), 'application/json');
      if (path === '/api/v3/categories') return send(res, 200, ok({ categories: [{ cid: 1, name: 'Announcements', handle: 'announcements' }, { cid: 2, name: 'General Discussion', handle: 'general' }] }), 'application/json');
      if (path === '/api/v3/topics' && req.method === 'POST') return send(res, 200, ok({ tid: 4, slug: '4/show-us-your-setup', mainPid: 400 }), 'application/json');
      if (/^\/api\/v3\/posts\/\d+\/raw$/.test(path)) return send(res, 200, ok({ content: 'Raw **markdown** of the post' }), 'application/json');
      if (/^\/api\/v3\/topics\/\d+$/.test(path) && req.method === 'GET') return send(res, 200, ok({ titleRaw: 'Welcome to Palaver!', slug: '1/welcome-to-palaver' }), 'application/json');
      if (/^\/api\/v3\/topics\/\d+$/.test(path)) return send(res, 200, ok({ pid: 999, tid: 1, index: 8 }), 'application/json');
      return send(res, 200, ok({}), 'application/json');
    }
    if (path === '/login' && req.method === 'POST') {
      const input = await body(req);
      if (input.password !== 'secret') return send(res, 403, JSON.stringify({ status: { code: 'forbidden', message: 'Invalid login credentials' } }), 'application/json');
      return send(res, 200, JSON.stringify({ next: `${RP}/` }), 'application/json');
    }
    if (path === '/test/emit') {
      // Test hook: pushes a socket event to every connected client.
      io.emit(url.searchParams.get('event') ?? 'event:alert', JSON.parse(url.searchParams.get('data') ?? 'null'));
      return send(res, 200, 'ok', 'text/plain');
    }
    if (path === '/test/disconnect') {
      io.disconnectSockets(true);
      return send(res, 200, 'ok', 'text/plain');
    }
    if (path === '/api/redirect-me') return send(res, 200, JSON.stringify(`${RP}/recent`), 'application/json', { 'X-Redirect': `${RP}/recent` });
    if (path === '/api/broken') return send(res, 502, 'bad gateway', 'text/plain');
    const isApi = path === '/api' || path.startsWith('/api/');
    const pagePath = (isApi ? path.slice(4) || '/' : path) + url.search;
    const { status, page } = pageFor(pagePath, me, RP);
    if (isApi) return send(res, status, JSON.stringify(page), 'application/json');
    send(res, status === 401 ? 302 : status, status === 401 ? '' : documentHtml(build, RP, page, config), undefined, status === 401 ? { Location: `${RP}/login` } : {});
  })().catch((err: unknown) => send(res, 500, String(err), 'text/plain'));
  });
  // A real socket.io server with the events the client uses (spec §7).
  const io = new SocketServer(server, { path: `${RP}/socket.io` });
  const rooms = new Map<string, string>();
  io.on('connection', (socket) => {
    socket.emit('setHostname', 'preview');
    socket.on('meta.rooms.enter', (data: { enter: string }, ack: (e: unknown) => void) => {
      rooms.set(socket.id, data.enter);
      void socket.join(data.enter);
      ack(null);
    });
    socket.on('meta.rooms.leaveCurrent', (ack: (e: unknown) => void) => {
      rooms.delete(socket.id);
      ack(null);
    });
    socket.on('meta.reconnected', (ack: (e: unknown, d: unknown) => void) => ack(null, { 'cache-buster': process.env.BUSTER ?? 'test', hostname: 'preview' }));
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { url: `http://localhost:${actual}${RP}`, close: () => new Promise((resolve) => { void io.close(); server.close(() => resolve()); }) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { url } = await startPreviewServer(Number(process.argv[2] ?? 4173), process.env.RP ?? '');
  console.log(`preview on ${url}/`);
}
