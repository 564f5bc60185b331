import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AdminDigestPage } from '../../../shared/schemas/admin-people.js';
import type { AppContext } from '../../context.js';
import { Envelope, ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { Id } from '../../http/input.js';
import { definePage, type PageDef } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { digestOverview, sendDigestNow } from './digest-admin.js';

const PER_PAGE = 50;

/** POST /api/v3/admin/digest/send: a digest now, for one member (`uid`) or everyone who gets digests. */
export function registerDigestAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/api/v3/admin/digest/send', {
    schema: { body: Type.Optional(Type.Object({ uid: Type.Optional(Id()) })), response: { 200: Envelope(Type.Object({ sent: Type.Number() })) }, tags: ['admin'] },
    handler: async (req) => ok({ sent: await sendDigestNow(ctx, req.viewer, req.body?.uid) }),
  });
}

const digestPage = definePage<AdminDigestPage>({
  path: '/admin/manage/digest',
  template: 'admin/manage/digest',
  access: 'admin',
  async load({ ctx, viewer, query }) {
    const page = pageNumber(query.page);
    const o = await digestOverview(ctx, viewer, page, PER_PAGE);
    const pageCount = Math.max(1, Math.ceil(o.count / PER_PAGE));
    if (page > pageCount) throw notFound();
    return {
      title: '[[admin-people:digest.title]]',
      breadcrumbs: [{ text: '[[admin-people:digest.title]]' }],
      delivery: o.delivery,
      default: o.default,
      lastRun: o.lastRun,
      pagination: pagination(page, pageCount, query),
    };
  },
});

/** admin/manage/digest. */
export const digestAdminPages: PageDef<any>[] = [digestPage];
