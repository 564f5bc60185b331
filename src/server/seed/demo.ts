import type { AppContext } from '../context.js';

/** Fills a new forum with believable demo content. (Filled in by the content work.) */
export async function seedDemo(ctx: AppContext): Promise<string> {
  void ctx;
  return 'Nothing seeded yet.';
}
