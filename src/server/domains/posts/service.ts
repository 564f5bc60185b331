import type { UserProfilePage } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { Viewer } from '../privileges/service.js';

/** Posts. (Filled in by the content work.) */
export class PostsService {
  constructor(private readonly ctx: AppContext) {}

  /** A member's latest posts that the viewer may read. */
  async recentByUser(viewer: Viewer, uid: number, limit: number): Promise<UserProfilePage['posts']> {
    void viewer;
    void uid;
    void limit;
    return [];
  }
}
