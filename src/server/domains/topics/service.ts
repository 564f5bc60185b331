import type { AppContext } from '../../context.js';

/** Topics. (Filled in by the content work.) */
export class TopicsService {
  constructor(private readonly ctx: AppContext) {}
}
