import type { AppContext } from '../../context.js';

/** Tags. (Filled in by the content work.) */
export class TagsService {
  constructor(private readonly ctx: AppContext) {}
}
