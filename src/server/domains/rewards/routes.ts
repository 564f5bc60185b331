import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Id, Int, Str } from '../../http/input.js';
import { rewardsOf } from './service.js';

const RuleSchema = Type.Object({ id: Type.Integer(), condition: Type.String(), value: Type.Integer(), group: Type.String(), disabled: Type.Boolean(), awarded: Type.Integer() });
const Fields = {
  condition: Str({ maxLength: 20 }),
  value: Int(),
  group: Str({ maxLength: 255 }),
  disabled: Type.Optional(Type.Boolean()),
};
const IdParams = Type.Object({ id: Id() });

/** The rewards admin's API (NodeBB keeps these on its admin socket): list, create, change, delete. */
export function registerRewardRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const rewards = rewardsOf(ctx);
  const tags = ['admin'];
  r.get('/api/v3/admin/rewards', {
    schema: { response: { 200: Envelope(Type.Object({ rewards: Type.Array(RuleSchema) })) }, tags },
    handler: async (req) => ok({ rewards: await rewards.list(req.viewer) }),
  });
  r.post('/api/v3/admin/rewards', {
    schema: { body: Type.Object(Fields), response: { 200: Envelope(RuleSchema) }, tags },
    handler: async (req) => ok(await rewards.create(req.viewer, req.body, req.ip)),
  });
  r.put('/api/v3/admin/rewards/:id', {
    schema: {
      params: IdParams,
      body: Type.Object({ condition: Type.Optional(Fields.condition), value: Type.Optional(Fields.value), group: Type.Optional(Fields.group), disabled: Fields.disabled }),
      response: { 200: Envelope(RuleSchema) },
      tags,
    },
    handler: async (req) => ok(await rewards.update(req.viewer, req.params.id, req.body, req.ip)),
  });
  r.delete('/api/v3/admin/rewards/:id', {
    schema: { params: IdParams, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await rewards.delete(req.viewer, req.params.id, req.ip);
      return ok({});
    },
  });
}
