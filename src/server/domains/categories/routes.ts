import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** /api/v3/categories routes. (Filled in by the content work.) */
export function registerCategoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app;
  void ctx;
}
