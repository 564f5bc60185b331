import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Envelope, ok } from '../../http/envelope.js';
import { Id, IdOrZero, Str } from '../../http/input.js';
import { applyPreset, copyFrom, copyToAll, PRESETS, setPrivilege } from './admin-privileges.js';

const Flags = Type.Record(Type.String(), Type.Boolean());
/** The matrix as the privileges page shows it (NodeBB's `privileges` of /api/admin/manage/privileges/{cid}). */
export const PrivilegeMatrixSchema = Type.Object({
  cid: Type.Integer(),
  labelData: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), type: Type.String() })),
  keys: Type.Object({ groups: Type.Array(Type.String()), users: Type.Array(Type.String()) }),
  groups: Type.Array(Type.Object({ name: Type.String(), nameEscaped: Type.String(), isSystem: Type.Boolean(), isPrivate: Type.Boolean(), privileges: Flags })),
  users: Type.Array(
    Type.Object({ uid: Type.Integer(), name: Type.String(), nameEscaped: Type.String(), picture: Type.String(), 'icon:text': Type.String(), 'icon:bgColor': Type.String(), privileges: Flags }),
  ),
});

const CidParams = Type.Object({ cid: IdOrZero() });
const PrivilegeParams = Type.Object({ cid: IdOrZero(), privilege: Str({ minLength: 1, maxLength: 100 }) });
const Member = Str({ minLength: 1, maxLength: 255 });

/**
 * The admin privileges matrix's writes: one privilege of a group or member (cid 0: global, as
 * NodeBB's PUT/DELETE /categories/{cid}/privileges/{privilege}), a preset, and the copies.
 * Every service call checks that the actor is an administrator.
 */
export function registerAdminPrivilegeRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];
  const response = { 200: Envelope(PrivilegeMatrixSchema) };
  for (const [method, give] of [['put', true], ['delete', false]] as const) {
    r[method]('/api/v3/admin/privileges/:cid/:privilege', {
      schema: { params: PrivilegeParams, body: Type.Object({ member: Member }), response, tags },
      handler: async (req) => ok(await setPrivilege(ctx, req.viewer, req.params.cid, req.params.privilege, req.body.member, give, req.ip)),
    });
  }
  r.post('/api/v3/admin/privileges/:cid/preset', {
    schema: { params: CidParams, body: Type.Object({ member: Member, preset: Type.Union(PRESETS.map((p) => Type.Literal(p))) }), response, tags },
    handler: async (req) => ok(await applyPreset(ctx, req.viewer, req.params.cid, req.body.member, req.body.preset, req.ip)),
  });
  r.post('/api/v3/admin/privileges/:cid/copy-to-all', {
    schema: { params: Type.Object({ cid: Id() }), body: Type.Object({ group: Type.Optional(Str({ maxLength: 255 })) }), response, tags },
    handler: async (req) => ok(await copyToAll(ctx, req.viewer, req.params.cid, req.body.group ?? '', req.ip)),
  });
  r.post('/api/v3/admin/privileges/:cid/copy-from', {
    schema: { params: Type.Object({ cid: Id() }), body: Type.Object({ fromCid: Id(), group: Type.Optional(Str({ maxLength: 255 })) }), response, tags },
    handler: async (req) => ok(await copyFrom(ctx, req.viewer, req.params.cid, req.body.fromCid, req.body.group ?? '', req.ip)),
  });
}
