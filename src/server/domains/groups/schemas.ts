import { Type } from 'typebox';
import { Id, Str } from '../../http/input.js';

const Flag = Type.Union([Type.Literal(0), Type.Literal(1), Type.Boolean()]);

export const SlugParams = Type.Object({ slug: Str({ minLength: 1, maxLength: 300 }) });
export const SlugUidParams = Type.Object({ slug: Str({ minLength: 1, maxLength: 300 }), uid: Id() });

/** The fields of a group an owner may change (NodeBB's names); each is checked again by the service. */
const GroupFields = {
  description: Type.Optional(Str({ maxLength: 10_000 })),
  icon: Type.Optional(Str({ maxLength: 100 })),
  labelColor: Type.Optional(Str({ maxLength: 7 })),
  textColor: Type.Optional(Str({ maxLength: 7 })),
  userTitle: Type.Optional(Str({ maxLength: 40 })),
  userTitleEnabled: Type.Optional(Flag),
  private: Type.Optional(Flag),
  hidden: Type.Optional(Flag),
  disableJoinRequests: Type.Optional(Flag),
  disableLeave: Type.Optional(Flag),
};

/** POST /api/v3/groups: NodeBB's body; `timestamp`, `createtime`, `ownerUid` and `memberPostCids` are accepted and ignored. */
export const GroupBody = Type.Object({ name: Str({ maxLength: 255 }), ...GroupFields }, { additionalProperties: true });
/** PUT /api/v3/groups/{slug}. */
export const GroupUpdateBody = Type.Object({ name: Type.Optional(Str({ maxLength: 255 })), ...GroupFields }, { additionalProperties: true });

export const ListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  sort: Type.Optional(Type.Union([Type.Literal('alpha'), Type.Literal('count'), Type.Literal('date')])),
  query: Type.Optional(Str({ maxLength: 100 })),
});
export const MembersQuery = Type.Object({ query: Type.Optional(Str({ maxLength: 100 })), after: Type.Optional(Str({ maxLength: 12, pattern: '^[0-9]*$' })) });
/** The groups whose badges a member shows, in order (NodeBB's `groupTitle` list). */
export const TitlesBody = Type.Object({ groupTitle: Type.Array(Str({ minLength: 1, maxLength: 255 }), { maxItems: 20 }) });
