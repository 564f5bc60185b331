-- Experiment: indexes proposed for the list queries (applied to the run's copy of the seed
-- with --experiment indexes; never to src/). See bench/README.md, "Defects found".
CREATE INDEX IF NOT EXISTS bench_topics_recent_live ON topics (deleted, last_post_time DESC, tid DESC);
CREATE INDEX IF NOT EXISTS bench_topics_cid_live ON topics (cid, deleted, pinned, last_post_time, tid);
