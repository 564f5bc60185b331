import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { notAuthorised } from '../../http/errors.js';
import { pageNumber } from '../../http/pagination.js';
import type { Viewer } from '../privileges/service.js';
import { defaultBody, NoBody, TopicSummarySchema } from '../topics/schemas.js';
import { Id } from '../../http/input.js';
import { presentCategory, presentWritten, type TagLimits } from './presenter.js';
import { presentModeratorChange, presentPrivilegeChange, presentPrivilegeList } from './privilege-presenter.js';
import {
  CategorySchema,
  CategoryWriteSchema,
  CidParams,
  CreateBody,
  DeleteBody,
  MemberBody,
  ModeratorChangeSchema,
  ModeratorParams,
  PageQuery,
  PrivilegeChangeSchema,
  PrivilegeListSchema,
  PrivilegeParams,
  UpdateBody,
  ViewerPrivilegesSchema,
  UnwatchBody,
  WatchAnswer,
  WatchBody,
} from './schemas.js';

function member(v: Viewer): Viewer {
  if (v.uid <= 0) throw notAuthorised();
  return v;
}

const tags = ['categories'];

/** GET /api/v3/categories/{cid}/topics: NodeBB's topics, the next start index and the viewer's privileges. */
const TopicsResponse = Type.Object({ topics: Type.Array(TopicSummarySchema), nextStart: Type.Number(), privileges: ViewerPrivilegesSchema });

/** /api/v3/categories routes: thin — parse, call the service, present. */
export function registerCategoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const cats = ctx.categories;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // A category without its own tag limits follows the forum's.
  const tagLimits = async (): Promise<TagLimits> => {
    const s = await ctx.settings.get();
    return { minTags: s.minimumTagsPerTopic, maxTags: s.maximumTagsPerTopic };
  };

  r.get('/api/v3/categories', {
    schema: {
      // ?privilege=topics:create: only the categories the viewer may start a topic in (the composer's picker).
      querystring: Type.Object({ privilege: Type.Optional(Type.Literal('topics:create')) }),
      response: { 200: Envelope(Type.Object({ categories: Type.Array(CategorySchema) })) },
      tags,
    },
    handler: async (req) => {
      const limits = await tagLimits();
      let rows = await cats.list(req.viewer);
      if (req.query.privilege) {
        const allowed = new Set(await ctx.privileges.filterCids(req.viewer, req.query.privilege, rows.map((r) => r.cid)));
        rows = rows.filter((r) => allowed.has(r.cid));
      }
      return ok({ categories: rows.map((row) => presentCategory(row, limits)) });
    },
  });
  r.put('/api/v3/categories/:cid/watch', {
    schema: { params: CidParams, body: WatchBody, response: { 200: Envelope(WatchAnswer) }, tags },
    handler: async (req) => ok({ modified: (await cats.watch(req.viewer, req.params.cid, req.body.state, req.body.uid)).map(String) }),
  });
  r.delete('/api/v3/categories/:cid/watch', {
    schema: { params: CidParams, body: UnwatchBody, response: { 200: Envelope(WatchAnswer) }, tags },
    handler: async (req) => ok({ modified: (await cats.watch(req.viewer, req.params.cid, null, req.body?.uid)).map(String) }),
  });
  r.post('/api/v3/categories', {
    schema: { body: CreateBody, response: { 200: Envelope(CategoryWriteSchema) }, tags },
    handler: async (req) => {
      // A missing name reaches the service, which answers with its own key.
      const row = await cats.create(member(req.viewer), { ...req.body, name: req.body.name as string });
      return ok(presentWritten(row, await tagLimits()));
    },
  });
  r.get('/api/v3/categories/:cid', {
    schema: { params: CidParams, response: { 200: Envelope(CategorySchema) }, tags },
    handler: async (req) => ok(presentCategory(await cats.readable(req.viewer, req.params.cid), await tagLimits())),
  });
  r.put('/api/v3/categories/:cid', {
    schema: { params: CidParams, body: UpdateBody, response: { 200: Envelope(CategoryWriteSchema) }, tags },
    handler: async (req) => ok(presentWritten(await cats.update(member(req.viewer), req.params.cid, req.body), await tagLimits())),
  });
  r.delete('/api/v3/categories/:cid', {
    schema: { params: CidParams, body: DeleteBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      // A category with topics needs { topics: 'move', moveTo } or { topics: 'purge' } (the service answers 400 otherwise).
      await cats.delete(member(req.viewer), req.params.cid, req.ip, req.body ?? {});
      return ok({});
    },
  });
  r.get('/api/v3/categories/:cid/count', {
    schema: { params: CidParams, response: { 200: Envelope(Type.Object({ count: Type.Number() })) }, tags },
    handler: async (req) => ok({ count: (await cats.readable(req.viewer, req.params.cid)).topic_count }),
  });
  r.get('/api/v3/categories/:cid/topics', {
    schema: { params: CidParams, querystring: PageQuery, response: { 200: Envelope(TopicsResponse) }, tags },
    handler: async (req) => {
      const { cid } = req.params;
      const page = pageNumber(req.query.page);
      await cats.readable(req.viewer, cid);
      const { topics, count, perPage } = await cats.topicPage(req.viewer, cid, page);
      const privileges = await ctx.privileges.forCategory(req.viewer, cid);
      return ok({ topics, nextStart: Math.min(page * perPage, count), privileges: { ...privileges } });
    },
  });
  // NodeBB's GET /api/categories/{cid}/moderators: the uids holding `moderate` in the category,
  // granted to them or to a group they are in.
  r.get('/api/categories/:cid/moderators', {
    schema: { params: CidParams, response: { 200: Type.Object({ moderators: Type.Array(Type.Number()) }) }, tags },
    handler: async (req) => {
      const { cid } = req.params;
      await cats.readable(req.viewer, cid);
      const subjects = (await ctx.privileges.list(cid)).moderate ?? [];
      const uids = subjects.filter((s) => s.startsWith('uid:')).map((s) => Number(s.slice(4)));
      const groups = await Promise.all(subjects.filter((s) => !s.startsWith('uid:')).map((name) => ctx.groups.members(name)));
      return { moderators: [...new Set([...uids, ...groups.flat()])].sort((a, b) => a - b) };
    },
  });
  r.get('/api/v3/categories/:cid/children', {
    schema: { params: CidParams, response: { 200: Envelope(Type.Object({ categories: Type.Array(CategorySchema) })) }, tags },
    handler: async (req) => {
      const { cid } = req.params;
      await cats.readable(req.viewer, cid);
      const limits = await tagLimits();
      // The direct children the viewer may read, in their order (list() walks the tree in order).
      return ok({ categories: (await cats.list(req.viewer)).filter((row) => row.parent_cid === cid).map((row) => presentCategory(row, limits)) });
    },
  });
  // The member named in the path (NodeBB's form of DELETE …/watch with { uid }).
  r.delete('/api/v3/categories/:cid/watch/:member', {
    schema: { params: Type.Object({ cid: Id(), member: Id() }), body: NoBody, response: { 200: Envelope(WatchAnswer) }, tags },
    preValidation: defaultBody,
    handler: async (req) => ok({ modified: (await cats.watch(req.viewer, req.params.cid, null, req.params.member)).map(String) }),
  });
  // The group or member named in the path (NodeBB's form of DELETE …/privileges/{privilege} with { member }).
  r.delete('/api/v3/categories/:cid/privileges/:privilege/:member', {
    schema: { params: Type.Object({ ...PrivilegeParams.properties, member: Type.String({ maxLength: 255 }) }), body: NoBody, response: { 200: Envelope(PrivilegeChangeSchema) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      const { cid, privilege, member: who } = req.params;
      return ok(presentPrivilegeChange(await cats.rescind(member(req.viewer), cid, privilege, who, req.ip)));
    },
  });
  r.get('/api/v3/categories/:cid/privileges', {
    schema: { params: CidParams, response: { 200: Envelope(PrivilegeListSchema) }, tags },
    handler: async (req) => ok(presentPrivilegeList(await cats.privileges(member(req.viewer), req.params.cid))),
  });
  for (const [method, give] of [['put', true], ['delete', false]] as const) {
    r[method]('/api/v3/categories/:cid/privileges/:privilege', {
      schema: { params: PrivilegeParams, body: MemberBody, response: { 200: Envelope(PrivilegeChangeSchema) }, tags },
      handler: async (req) => {
        const { cid, privilege } = req.params;
        const actor = member(req.viewer);
        const set = give ? await cats.grant(actor, cid, privilege, req.body.member, req.ip) : await cats.rescind(actor, cid, privilege, req.body.member, req.ip);
        return ok(presentPrivilegeChange(set));
      },
    });
    // NodeBB documents no body for either method; one sent anyway is ignored.
    r[method]('/api/v3/categories/:cid/moderator/:uid', {
      schema: { params: ModeratorParams, body: NoBody, response: { 200: Envelope(ModeratorChangeSchema) }, tags },
      handler: async (req) => {
        const { cid, uid } = req.params;
        return ok(presentModeratorChange(await cats.moderator(member(req.viewer), cid, uid, give, req.ip)));
      },
    });
  }
}
