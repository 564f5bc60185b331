import type { NewCategory } from '../domains/categories/service.js';

/** Demo categories, in display order. */
export const CATEGORIES: NewCategory[] = [
  { name: 'Announcements', description: 'News from the team: releases, events and changes to the community.', icon: 'fa-bullhorn', bgColor: '#e74c3c' },
  { name: 'General Discussion', description: 'Talk about anything and everything. Be kind.', icon: 'fa-comments', bgColor: '#2c7be5' },
  { name: 'Help & Support', description: 'Stuck? Ask here, and tell us what you tried.', icon: 'fa-life-ring', bgColor: '#27ae60' },
  { name: 'Show and Tell', description: 'Share what you have made: projects, photos, write-ups.', icon: 'fa-star', bgColor: '#f39c12' },
  { name: 'Off-topic', description: 'Games, books, food and the weather.', icon: 'fa-coffee', bgColor: '#8e44ad' },
];

/** Demo members. */
export const MEMBERS = [
  { username: 'marguerite', fullname: 'Marguerite Okafor', about: 'Gardener, tinkerer, occasional baker.' },
  { username: 'tomasz_k', fullname: 'Tomasz Kowalski', about: 'Backend developer. Postgres enthusiast.' },
  { username: 'lin.wei', fullname: 'Lin Wei', about: 'I write about type systems and tea.' },
  { username: 'jo-ellen', fullname: 'Jo Ellen Park', about: 'Moderator of the help section. Ask me anything.' },
  { username: 'Ravi', fullname: 'Ravi Menon', about: 'Photography and long walks.' },
  { username: 'saoirse', fullname: 'Saoirse Byrne', about: 'Front-end, accessibility, cats.' },
  { username: 'dmitri', fullname: 'Dmitri Volkov', about: 'Chess, compilers, cold showers.' },
  { username: 'amara', fullname: 'Amara Nwosu', about: 'Product designer who likes spreadsheets.' },
  { username: 'henrik', fullname: 'Henrik Dahl', about: 'Sysadmin. Has opinions about backups.' },
  { username: 'paloma', fullname: 'Paloma Ruiz', about: 'Learning Rust, one borrow at a time.' },
  { username: 'yuki', fullname: 'Yuki Tanaka', about: 'Music, synths and small web pages.' },
  { username: 'oliver_b', fullname: 'Oliver Brown', about: 'New here. Hello!' },
];

interface DemoTopic {
  category: number;
  title: string;
  content: string;
  tags: string[];
}

/** Demo topics; `category` indexes CATEGORIES. */
export const TOPICS: DemoTopic[] = [
  {
    category: 0,
    title: 'Welcome to the community!',
    tags: ['welcome', 'meta'],
    content:
      'Hello and welcome! This forum is a place to ask questions, share what you are working on and meet people who like the same things you do.\n\n' +
      '**A few ground rules**\n\n- Be kind and assume good intent.\n- Search before you ask; someone may have had the same problem.\n- Use tags so others can find your topic later.\n\nIntroduce yourself in *General Discussion* — we would love to hear from you.',
  },
  {
    category: 0,
    title: 'Maintenance window on Saturday morning',
    tags: ['maintenance'],
    content: 'We will upgrade the database server this Saturday between 06:00 and 07:00 UTC. The forum will be read-only for about ten minutes. Drafts you are writing are kept in your browser, so nothing is lost.',
  },
  {
    category: 1,
    title: 'What are you working on this week?',
    tags: ['weekly', 'projects'],
    content: 'A weekly thread for small updates. Share one thing you finished, one thing you are stuck on, and one thing you learned.\n\nI finally moved my notes from three different apps into plain markdown files. It feels great.',
  },
  {
    category: 1,
    title: 'Favourite keyboard shortcuts you cannot live without',
    tags: ['productivity'],
    content: 'Mine is `Ctrl+Shift+T` to reopen the tab I just closed by accident, which is roughly forty times a day. What are yours?',
  },
  {
    category: 2,
    title: 'SQLite says "database is locked" under load',
    tags: ['sqlite', 'database'],
    content:
      'My small app writes from two worker threads and every few minutes I get `SQLITE_BUSY`. I am opening the database like this:\n\n' +
      '```js\nconst db = new Database("app.db");\ndb.pragma("journal_mode = WAL");\n```\n\nIs WAL not enough? What else should I set?',
  },
  {
    category: 2,
    title: 'How do I undo the last git commit but keep my changes?',
    tags: ['git'],
    content: 'I committed to the wrong branch. I want the commit gone but the changes still in my working tree so I can commit them somewhere else. What is the safe way?',
  },
  {
    category: 2,
    title: 'CSS grid: item refuses to shrink below its content',
    tags: ['css', 'frontend'],
    content:
      'I have a two-column grid and a long URL in the left column pushes the whole layout wider than the screen on phones.\n\n' +
      '```css\n.layout {\n  display: grid;\n  grid-template-columns: 1fr 300px;\n}\n```\n\nWhat am I missing?',
  },
  {
    category: 3,
    title: 'I built a tiny weather station with a Raspberry Pi',
    tags: ['hardware', 'raspberry-pi'],
    content: 'Temperature, humidity and pressure every minute, written to a SQLite file and drawn as a chart on a little web page. Total cost about 40 euros. Happy to share the code if anyone wants it!',
  },
  {
    category: 3,
    title: 'Photos from the autumn walk',
    tags: ['photography'],
    content: 'We had perfect light on Sunday. The leaves on the north side of the lake were already deep red. I shot everything on a 35 mm lens, no edits apart from cropping.',
  },
  {
    category: 3,
    title: 'A small type-safe event emitter in 30 lines of TypeScript',
    tags: ['typescript'],
    content:
      'I keep rewriting this, so here it is for anyone who needs it:\n\n' +
      '```ts\ntype Events = { save: { id: number }; close: undefined };\n\nclass Emitter<E extends Record<string, unknown>> {\n  private handlers: { [K in keyof E]?: ((data: E[K]) => void)[] } = {};\n  on<K extends keyof E>(name: K, fn: (data: E[K]) => void) {\n    (this.handlers[name] ??= []).push(fn);\n  }\n  emit<K extends keyof E>(name: K, data: E[K]) {\n    this.handlers[name]?.forEach((fn) => fn(data));\n  }\n}\n```',
  },
  {
    category: 4,
    title: 'What are you reading at the moment?',
    tags: ['books'],
    content: 'I am halfway through a history of cartography and it is much more gripping than it has any right to be. Recommendations welcome, fiction or not.',
  },
  {
    category: 4,
    title: 'The best bread recipe for beginners',
    tags: ['food', 'baking'],
    content: '500 g flour, 350 g water, 10 g salt, 5 g yeast. Mix, wait an hour, fold, wait another hour, shape, bake at 230 °C for 35 minutes. That is it. Your kitchen will smell amazing.',
  },
];

/** Demo replies, picked in turn. */
export const REPLIES = [
  'Thanks for posting this, it is exactly what I was looking for.',
  'Have you tried setting a `busy_timeout`? It made the errors disappear for me:\n\n```js\ndb.pragma("busy_timeout = 5000");\n```',
  'I had the same problem last month. In the end it was a setting I had forgotten about in the config file.',
  'Great write-up! Would you mind sharing a photo of the finished build?',
  'Agreed. I would add: write the question so that someone who has never seen your project can follow it.',
  '`git reset --soft HEAD~1` keeps the changes staged. Then `git stash`, switch branch, `git stash pop`.',
  'Add `min-width: 0` to the grid item. Grid items default to `min-width: auto`, which is the size of their content.',
  'This made my day, thank you.',
  'I respectfully disagree — but it is a good discussion to have. In my experience the simpler option wins nine times out of ten.',
  'Bookmarking this for later. Lots of good ideas here.',
  'Welcome! Glad to have you here.',
  'Could you say a bit more about how you measured that? I would like to try it myself.',
  'Small tip: you can preview your post before sending it, which helps with code blocks.',
  'I tried this over the weekend and it worked first time. Nice!',
];
