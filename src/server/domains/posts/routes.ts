import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** /api/v3/posts routes. (Filled in by the content work.) */
export function registerPostRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app;
  void ctx;
}
