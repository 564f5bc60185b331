import type { AppContext } from '../../context.js';
import type { CategoryRow } from '../../hooks/types.js';
import type { Viewer } from '../privileges/service.js';

export interface NewCategory {
  name: string;
  description?: string;
  parentCid?: number;
  handle?: string;
  icon?: string;
  bgColor?: string;
  color?: string;
  order?: number;
  link?: string;
}

/** Categories: nested, ordered, with counters. (Filled in by the content work.) */
export class CategoriesService {
  constructor(private readonly ctx: AppContext) {}

  /** Creates a category (admins only) with the default privileges. */
  async create(actor: Viewer, data: NewCategory): Promise<CategoryRow> {
    void actor;
    void data;
    throw new Error('not implemented');
  }

  /** How many categories exist. */
  async count(): Promise<number> {
    throw new Error('not implemented');
  }
}
