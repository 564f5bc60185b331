// The ceiling: a bare Fastify route on the same machine answering a JSON body of a given size
// (the topic page's), serialised per request like a real handler's reply.
//   PORT=… node bench/ceiling.mjs <bytes>
import Fastify from 'fastify';

const bytes = Math.max(200, Number(process.argv[2] ?? 5000));
const port = Number(process.env.PORT ?? 0);

// A page-like object: some scalar fields and a list of post-like entries, padded to `bytes`.
function payload(size) {
  const body = { template: { name: 'topic', topic: true }, title: 'Ceiling', tid: 1, posts: [] };
  let i = 0;
  while (JSON.stringify(body).length < size - 200) {
    body.posts.push({ pid: i, uid: i % 200, content: `<p>${'lorem ipsum dolor sit amet '.repeat(12)}</p>`, timestamp: 1700000000000 + i, votes: i % 7 });
    i += 1;
  }
  const pad = size - JSON.stringify(body).length - 10;
  body.pad = 'x'.repeat(Math.max(0, pad));
  return body;
}

const data = payload(bytes);
const app = Fastify({ logger: false });
app.get('/', async (_req, reply) => reply.header('cache-control', 'private, no-store').send(data));
await app.listen({ port, host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
