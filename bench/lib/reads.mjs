// The reads the benchmark loads (bench/run.mjs) and counts the queries of (bench/queries.mjs),
// made from the seed's meta. `admin`: as the administrator only (its "member" row); `member`:
// members only (a guest gets the login page).
export function benchReads(seed) {
  const cat = seed.cids[0];
  const small = seed.tids.small;
  const big = seed.tids.big;
  return [
    { id: 'categories', label: '/api/categories', path: '/api/categories' },
    { id: 'category', label: '/api/category/:cid', path: `/api/category/${seed.categorySlugs[cat]}` },
    { id: 'recent', label: '/api/recent', path: '/api/recent' },
    // A list by term: every seeded topic had a post in the last month, so it sorts them all.
    { id: 'popularMonth', label: '/api/popular?term=month', path: '/api/popular?term=month' },
    { id: 'topic', label: '/api/topic/:tid (10 posts)', path: `/api/topic/${small}/${seed.slugs[small]}` },
    { id: 'topicBig', label: `/api/topic/:big (${seed.shape.bigPosts} posts, page 1)`, path: `/api/topic/${big}/${seed.slugs[big]}` },
    { id: 'topicHtml', label: '/topic/:tid/:slug (HTML)', path: `/topic/${small}/${seed.slugs[small]}` },
    { id: 'home', label: '/ (HTML)', path: '/' },
    // The admin dashboard (issue 16 §3): counters, three graphs' sums, top topics, system panel.
    // Page views of every read above are counted in memory and flushed in batches, so their
    // figures already include the counting.
    { id: 'dashboard', label: '/api/admin (dashboard, as an admin)', path: '/api/admin', admin: true },
    // The pages the capability issues added that a member opens every day (issue 18: "the
    // pages the capability issues add within the same ratio"). The seed gives the member 60
    // notifications (20 unread) and 13 chat rooms, one of 100 messages; another member's
    // profile and posts are what a reader opens from a post.
    { id: 'unread', label: '/api/unread', path: '/api/unread', member: true },
    { id: 'notifications', label: '/api/notifications', path: '/api/notifications', member: true },
    { id: 'chats', label: '/api/chats (13 rooms)', path: '/api/chats', member: true },
    ...(seed.chatRoom ? [{ id: 'chatRoom', label: '/api/chats/:roomid (100 messages)', path: `/api/chats/${seed.chatRoom}`, member: true }] : []),
    { id: 'profile', label: '/api/user/:userslug', path: `/api/user/${seed.usernames[1]}` },
    { id: 'userPosts', label: '/api/user/:userslug/posts', path: `/api/user/${seed.usernames[1]}/posts` },
    { id: 'tags', label: '/api/tags', path: '/api/tags' },
    { id: 'users', label: '/api/users', path: '/api/users' },
  ];
}
