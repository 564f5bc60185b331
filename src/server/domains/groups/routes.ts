import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { GroupDataSchema, GroupListItemSchema, GroupMemberSchema, GroupMembersSchema } from '../../../shared/schemas/group.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Id } from '../../http/input.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { presentUser, presentUserSlim } from '../users/presenter.js';
import { presentGroup, presentMember } from './presenter.js';
import { GroupBody, GroupUpdateBody, ListQuery, MembersQuery, SlugParams, SlugUidParams, TitlesBody } from './schemas.js';

/** NodeBB's fixed page size of GET /groups. */
export const GROUPS_PER_PAGE = 15;
const MEMBERS_PER_PAGE = 50;
const CoverBody = Type.Object({ position: Type.String({ maxLength: 40 }) });
const CoverAnswer = Type.Object({ 'cover:url': Type.String(), 'cover:thumb:url': Type.String(), 'cover:position': Type.String() });
const coverAnswer = (g: Parameters<typeof presentGroup>[0]) => {
  const p = presentGroup(g);
  return ok({ 'cover:url': p['cover:url'], 'cover:thumb:url': p['cover:thumb:url'], 'cover:position': p['cover:position'] });
};

/** NodeBB's /api/v3/groups routes, and Palaver's choice of the badges a member shows. */
export function registerGroupRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['groups'];
  const members = async (uids: number[]) => {
    const users = await ctx.users.getMany(uids);
    return uids.map((uid) => presentMember(presentUser(users.get(uid), uid)));
  };

  app.get('/api/v3/groups/', {
    schema: { querystring: ListQuery, response: { 200: Envelope(Type.Object({ groups: Type.Array(GroupListItemSchema), nextStart: Type.Number() })) }, tags },
    handler: async (req) => {
      const page = Math.max(1, req.query.page ?? 1);
      const offset = (page - 1) * GROUPS_PER_PAGE;
      const { rows } = await ctx.groups.list(req.viewer, { sort: req.query.sort ?? 'alpha', query: req.query.query ?? '', offset, limit: GROUPS_PER_PAGE });
      const groups = (await listItems(ctx, rows)).map((g) => ({ ...g, members: g.members.map(({ picture: _p, ...m }) => m) }));
      return ok({ groups, nextStart: offset + rows.length });
    },
  });

  app.post('/api/v3/groups/', {
    schema: { body: GroupBody, response: { 200: Envelope(GroupDataSchema) }, tags },
    handler: async (req) => ok(presentGroup(await ctx.groups.create(req.viewer, req.body))),
  });

  app.head('/api/v3/groups/:slug', {
    schema: { params: SlugParams, tags },
    handler: async (req, reply) => {
      const found = await ctx.groups.visible(req.viewer, req.params.slug).then(() => true, () => false);
      return reply.code(found ? 200 : 404).send();
    },
  });

  app.put('/api/v3/groups/:slug', {
    schema: { params: SlugParams, body: GroupUpdateBody, response: { 200: Envelope(GroupDataSchema) }, tags },
    handler: async (req) => ok(presentGroup(await ctx.groups.update(req.viewer, req.params.slug, req.body))),
  });

  app.delete('/api/v3/groups/:slug', {
    schema: { params: SlugParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.groups.delete(req.viewer, req.params.slug);
      return ok({});
    },
  });

  app.get('/api/v3/groups/:slug/members', {
    schema: { params: SlugParams, querystring: MembersQuery, response: { 200: Envelope(GroupMembersSchema) }, tags },
    handler: async (req) => {
      const g = await ctx.groups.visible(req.viewer, req.params.slug);
      const query = req.query.query ?? '';
      const offset = query ? 0 : Math.max(0, Number(req.query.after ?? 0) || 0);
      const { rows, count } = await ctx.groups.memberPage(g, { query, offset, limit: MEMBERS_PER_PAGE });
      const users = await ctx.users.getMany(rows.map((r) => r.uid));
      const list = rows.flatMap((r) => {
        const row = users.get(r.uid);
        return row ? [{ ...presentUserSlim(row), isOwner: r.is_owner === 1 }] : [];
      });
      return ok({ users: list, matchCount: query ? count : null, timing: null, nextStart: offset + rows.length });
    },
  });

  for (const [method, join] of [['put', true], ['delete', false]] as const) {
    app[method]('/api/v3/groups/:slug/membership/:uid', {
      schema: { params: SlugUidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      preValidation: defaultBody,
      handler: async (req) => {
        if (join) await ctx.groups.joinOrRequest(req.viewer, req.params.slug, req.params.uid);
        else await ctx.groups.leaveOrKick(req.viewer, req.params.slug, req.params.uid);
        return ok({});
      },
    });
    app[method]('/api/v3/groups/:slug/ownership/:uid', {
      schema: { params: SlugUidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.groups.setOwner(req.viewer, req.params.slug, req.params.uid, join);
        return ok({});
      },
    });
    app[method]('/api/v3/groups/:slug/pending/:uid', {
      schema: { params: SlugUidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.groups.answerRequest(req.viewer, req.params.slug, req.params.uid, join);
        return ok({});
      },
    });
    app[method]('/api/v3/groups/:slug/invites/:uid', {
      schema: { params: SlugUidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.groups.answerInvite(req.viewer, req.params.slug, req.params.uid, join);
        return ok({});
      },
    });
  }

  app.post('/api/v3/groups/:slug/invites/:uid', {
    schema: { params: SlugUidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.groups.invite(req.viewer, req.params.slug, req.params.uid);
      return ok({});
    },
  });

  app.get('/api/v3/groups/:slug/pending', {
    schema: { params: SlugParams, response: { 200: Envelope(Type.Object({ pending: Type.Array(GroupMemberSchema) })) }, tags },
    handler: async (req) => ok({ pending: await members(await ctx.groups.waiting(req.viewer, req.params.slug, 'pending')) }),
  });

  app.get('/api/v3/groups/:slug/invites', {
    schema: { params: SlugParams, response: { 200: Envelope(Type.Object({ invites: Type.Array(GroupMemberSchema) })) }, tags },
    handler: async (req) => ok({ invites: await members(await ctx.groups.waiting(req.viewer, req.params.slug, 'invites')) }),
  });

  // Palaver's additions (NodeBB moves and removes group covers over its socket, groups.cover.*):
  // PUT moves the cover, DELETE removes it; the upload itself is multipart, with the uploads domain's routes.
  app.put('/api/v3/groups/:slug/cover', {
    schema: { params: SlugParams, body: CoverBody, response: { 200: Envelope(CoverAnswer) }, tags },
    handler: async (req) => coverAnswer(await ctx.groups.setCover(req.viewer, req.params.slug, { position: req.body.position })),
  });

  app.delete('/api/v3/groups/:slug/cover', {
    schema: { params: SlugParams, body: NoBody, response: { 200: Envelope(CoverAnswer) }, tags },
    preValidation: defaultBody,
    handler: async (req) => coverAnswer(await ctx.groups.setCover(req.viewer, req.params.slug, { url: '' })),
  });

  // Palaver's addition (NodeBB sets `groupTitle` through the profile edit): the badges a member shows, in order.
  app.put('/api/v3/users/:uid/group-titles', {
    schema: { params: Type.Object({ uid: Id() }), body: TitlesBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.groups.setBadges(req.viewer, req.params.uid, req.body.groupTitle);
      return ok({});
    },
  });
}

const PREVIEW = 4;

/** Groups with their first members (one query for all previews, one for their users). */
export async function listItems(ctx: AppContext, rows: Parameters<typeof presentGroup>[0][]) {
  const previews = await ctx.groups.previews(rows.map((g) => g.name), PREVIEW);
  const users = await ctx.users.getMany([...previews.values()].flat());
  return rows.map((g) => {
    const uids = previews.get(g.name) ?? [];
    return { ...presentGroup(g), members: uids.map((uid) => presentMember(presentUser(users.get(uid), uid))), truncated: g.member_count > uids.length };
  });
}
