import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { GroupDataSchema } from '../../../shared/schemas/group.js';
import type { AppContext } from '../../context.js';
import { csvRow } from '../../http/csv.js';
import { Envelope, ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { Str } from '../../http/input.js';
import { presentGroup } from './presenter.js';

/** NodeBB's GET /api/v3/admin/groups (every group, hidden ones too) and the members' CSV export. */
export function registerAdminGroupRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/v3/admin/groups', {
    schema: { response: { 200: Envelope(Type.Object({ groups: Type.Array(GroupDataSchema) })) }, tags: ['admin'] },
    handler: async (req) => ok({ groups: (await ctx.groups.adminList(req.viewer)).map(presentGroup) }),
  });
  // NodeBB's /api/admin/groups/{groupname}/csv: the members as a CSV file (administrators).
  r.get('/api/admin/groups/:groupname/csv', {
    schema: { params: Type.Object({ groupname: Str({ minLength: 1, maxLength: 300 }) }), response: { 200: Type.String({ description: 'the members as CSV' }) }, tags: ['admin'] },
    handler: async (req, reply) => {
      const list = await ctx.groups.adminList(req.viewer);
      const g = list.find((x) => x.name === req.params.groupname || x.slug === req.params.groupname);
      if (!g) throw notFound('error:no-group');
      const uids = await ctx.groups.members(g.name);
      const users = await ctx.users.getMany(uids);
      const lines = [csvRow(['uid', 'username', 'email', 'joindate', 'postcount', 'reputation'])];
      for (const uid of uids) {
        const u = users.get(uid);
        if (u) lines.push(csvRow([u.uid, u.username, u.email ?? '', new Date(Number(u.joindate)).toISOString(), u.postcount, u.reputation]));
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${g.slug || 'group'}-members.csv"`)
        .send(lines.join(''));
    },
  });
}
