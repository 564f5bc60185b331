import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { notAuthorised } from '../../http/errors.js';
import { pageNumber } from '../../http/pagination.js';
import type { Viewer } from '../privileges/service.js';
import { presentCategory } from './presenter.js';
import {
  CategorySchema,
  CidParams,
  CreateBody,
  MemberBody,
  ModeratorParams,
  PageQuery,
  PrivilegeParams,
  PrivilegeSetSchema,
  TopicsResponse,
  UpdateBody,
} from './schemas.js';
import type { CategoryInput } from './validate.js';

function member(v: Viewer): Viewer {
  if (v.uid <= 0) throw notAuthorised();
  return v;
}

type Cid = { cid: number };
const tags = ['categories'];

/** /api/v3/categories routes: thin — parse, call the service, present. */
export function registerCategoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const cats = ctx.categories;

  app.get('/api/v3/categories', {
    schema: { response: { 200: Envelope(Type.Object({ categories: Type.Array(CategorySchema) })) }, tags },
    handler: async (req) => ok({ categories: (await cats.list(req.viewer)).map(presentCategory) }),
  });
  app.post('/api/v3/categories', {
    schema: { body: CreateBody, response: { 200: Envelope(CategorySchema) }, tags },
    handler: async (req) => {
      const body = req.body as CategoryInput;
      return ok(presentCategory(await cats.create(member(req.viewer), { ...body, name: body.name as string })));
    },
  });
  app.get('/api/v3/categories/:cid', {
    schema: { params: CidParams, response: { 200: Envelope(CategorySchema) }, tags },
    handler: async (req) => ok(presentCategory(await cats.readable(req.viewer, (req.params as Cid).cid))),
  });
  app.put('/api/v3/categories/:cid', {
    schema: { params: CidParams, body: UpdateBody, response: { 200: Envelope(CategorySchema) }, tags },
    handler: async (req) => ok(presentCategory(await cats.update(member(req.viewer), (req.params as Cid).cid, req.body as CategoryInput))),
  });
  app.delete('/api/v3/categories/:cid', {
    schema: { params: CidParams, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await cats.delete(member(req.viewer), (req.params as Cid).cid, req.ip);
      return ok({});
    },
  });
  app.get('/api/v3/categories/:cid/count', {
    schema: { params: CidParams, response: { 200: Envelope(Type.Object({ count: Type.Number() })) }, tags },
    handler: async (req) => ok({ count: (await cats.readable(req.viewer, (req.params as Cid).cid)).topic_count }),
  });
  app.get('/api/v3/categories/:cid/topics', {
    schema: { params: CidParams, querystring: PageQuery, response: { 200: Envelope(TopicsResponse) }, tags },
    handler: async (req) => {
      const { cid } = req.params as Cid;
      const page = pageNumber((req.query as { page?: string }).page);
      await cats.readable(req.viewer, cid);
      const { topics, count, perPage, pageCount } = await cats.topicPage(req.viewer, cid, page);
      const privileges = await ctx.privileges.forCategory(req.viewer, cid);
      return ok({ topics, count, page, pageCount, nextStart: Math.min(page * perPage, count), privileges });
    },
  });
  app.get('/api/v3/categories/:cid/privileges', {
    schema: { params: CidParams, response: { 200: Envelope(PrivilegeSetSchema) }, tags },
    handler: async (req) => ok(await cats.privileges(member(req.viewer), (req.params as Cid).cid)),
  });
  for (const [method, give] of [['put', true], ['delete', false]] as const) {
    app[method]('/api/v3/categories/:cid/privileges/:privilege', {
      schema: { params: PrivilegeParams, body: MemberBody, response: { 200: Envelope(PrivilegeSetSchema) }, tags },
      handler: async (req) => {
        const { cid, privilege } = req.params as Cid & { privilege: string };
        const { member: who } = req.body as { member: string };
        const actor = member(req.viewer);
        return ok(give ? await cats.grant(actor, cid, privilege, who, req.ip) : await cats.rescind(actor, cid, privilege, who, req.ip));
      },
    });
    app[method]('/api/v3/categories/:cid/moderator/:uid', {
      // PUT may carry an (empty) body; DELETE usually has none.
      schema: { params: ModeratorParams, ...(give ? { body: Type.Optional(Type.Object({})) } : {}), response: { 200: Envelope(PrivilegeSetSchema) }, tags },
      handler: async (req) => {
        const { cid, uid } = req.params as Cid & { uid: number };
        return ok(await cats.moderator(member(req.viewer), cid, uid, give, req.ip));
      },
    });
  }
}
