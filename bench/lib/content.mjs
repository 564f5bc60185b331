// Deterministic forum content for the benchmark seed: the same run always writes the same
// text, so two seeds (and two machines) measure the same pages.

/** A small seeded PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'forum thread reply member moderator category topic post upvote bookmark cache index query ' +
  'server client socket render markdown profile session token latency throughput database ' +
  'migration schema release build deploy plugin widget theme language translation search ' +
  'notification digest email upload image avatar badge reputation privilege group admin ' +
  'performance memory request response header cookie browser mobile desktop keyboard ' +
  'the a of and to in is that it for on with as was this but be at by not or have from'
).split(' ');

const CODE = [
  ['js', "const topics = await db.selectFrom('topics')\n  .where('cid', '=', cid)\n  .orderBy('last_post_time', 'desc')\n  .limit(20)\n  .execute();\nconsole.log(topics.length);"],
  ['ts', 'export function slugify(text: string): string {\n  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");\n}'],
  ['sql', 'SELECT t.tid, t.title, count(p.pid) AS posts\nFROM topics t JOIN posts p ON p.tid = t.tid\nGROUP BY t.tid\nORDER BY posts DESC\nLIMIT 10;'],
  ['bash', 'npm ci\nnpm run build\nPORT=4567 node bin/palaver.mjs start'],
  ['python', 'def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nprint(fib(30))'],
];

function sentence(next) {
  const n = 6 + Math.floor(next() * 10);
  const words = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(next() * WORDS.length)]);
  let s = words.join(' ');
  if (next() < 0.15) s = s.replace(/(\w+) (\w+)/, '**$1** $2');
  if (next() < 0.1) s = s.replace(/ (\w+)$/, ' `$1`');
  if (next() < 0.05) s += ' (see https://example.com/docs)';
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

/**
 * About 400 characters of markdown: paragraphs, sometimes a list, and for every fifth post
 * (decided by the seed) a fenced code block.
 */
export function postBody(seed) {
  const next = rng(seed * 2654435761);
  const parts = [];
  let length = 0;
  const withCode = next() < 0.2;
  const target = withCode ? 220 : 400;
  while (length < target) {
    let para = '';
    while (para.length < 140 && length + para.length < target) para += `${sentence(next)} `;
    parts.push(para.trim());
    length += para.length;
    if (next() < 0.12 && length < target) {
      const items = ['- ' + sentence(next), '- ' + sentence(next)];
      parts.push(items.join('\n'));
      length += items.join('').length;
    }
  }
  if (withCode) {
    const [lang, code] = CODE[Math.floor(next() * CODE.length)];
    parts.splice(1, 0, `\`\`\`${lang}\n${code}\n\`\`\``);
  }
  return parts.join('\n\n');
}

/** A topic title, unique per index. */
export function topicTitle(i) {
  const next = rng(i * 97 + 13);
  const n = 3 + Math.floor(next() * 6);
  const words = [];
  for (let k = 0; k < n; k++) words.push(WORDS[Math.floor(next() * 48)]);
  const t = words.join(' ');
  return `${t[0].toUpperCase()}${t.slice(1)} #${i + 1}`;
}

/** Tags for some topics (about one in three). */
export function topicTags(i) {
  if (i % 3 !== 0) return [];
  const pool = ['performance', 'release', 'plugins', 'database', 'themes', 'mobile', 'search', 'question'];
  return [pool[i % pool.length], pool[(i * 7 + 3) % pool.length]].filter((v, k, a) => a.indexOf(v) === k);
}

/**
 * How many replies each topic gets: `topics` numbers summing to `replies`, with one topic of
 * `bigReplies` (index `big`) and one of `smallReplies` (index `small`), the rest spread
 * unevenly (0 to about twice the mean).
 */
export function replyCounts({ topics, replies, big, bigReplies, small, smallReplies }) {
  const counts = new Array(topics).fill(0);
  counts[big] = bigReplies;
  counts[small] = smallReplies;
  const rest = replies - bigReplies - smallReplies;
  const others = topics - 2;
  const next = rng(424242);
  const weights = [];
  for (let i = 0; i < topics; i++) weights.push(i === big || i === small ? 0 : 0.1 + next() * 1.9);
  const sum = weights.reduce((a, b) => a + b, 0);
  let given = 0;
  for (let i = 0; i < topics; i++) {
    if (!weights[i]) continue;
    counts[i] = Math.floor((weights[i] / sum) * rest);
    given += counts[i];
  }
  // Hand out the rounding remainder one by one.
  for (let i = 0, left = rest - given; left > 0; i = (i + 1) % topics) {
    if (weights[i]) {
      counts[i] += 1;
      left -= 1;
    }
  }
  void others;
  return counts;
}
