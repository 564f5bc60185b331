import { Type, type TSchema } from 'typebox';
import { Id, IdOrZero, Int } from '../../http/input.js';

/** A category as the v3 API answers (presentCategory): NodeBB's CategoryObject. */
export { CategoryObjectSchema as CategorySchema, CategoryRefSchema, CategoryWriteSchema } from '../../../shared/schemas/category.js';

// Lengths are loose here on purpose: the service checks them and answers with its own keys.
const Fields = {
  description: Type.Optional(Type.String({ maxLength: 20000 })),
  parentCid: Type.Optional(IdOrZero()),
  handle: Type.Optional(Type.String({ maxLength: 1024 })),
  icon: Type.Optional(Type.String({ maxLength: 1024 })),
  bgColor: Type.Optional(Type.String({ maxLength: 1024 })),
  color: Type.Optional(Type.String({ maxLength: 1024 })),
  order: Type.Optional(Int()),
  link: Type.Optional(Type.String({ maxLength: 4096 })),
  disabled: Type.Optional(Type.Boolean()),
  tagWhitelist: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 500 })),
  minTags: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()])),
  maxTags: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()])),
  /** NodeBB's per-category postQueue: 1 (default) lets the forum's post queue apply here. */
  postQueue: Type.Optional(Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 1 })])),
};

/** POST /api/v3/categories. The name is optional here so a missing one gets its own key. */
export const CreateBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 1024 })), ...Fields });

/** PUT /api/v3/categories/{cid}: any subset of the fields. */
export const UpdateBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 1024 })), ...Fields });

/** DELETE /api/v3/categories/{cid}: what becomes of its topics (required when it has some). */
export const DeleteBody = Type.Optional(
  Type.Object({ topics: Type.Optional(Type.Union([Type.Literal('move'), Type.Literal('purge')])), moveTo: Type.Optional(Id()) }),
);

/** POST /api/v3/admin/categories/{cid}/copy-settings. */
export const CopySettingsBody = Type.Object({ fromCid: Id(), privileges: Type.Optional(Type.Boolean()), parent: Type.Optional(Type.Boolean()) });

export const CidParams = Type.Object({ cid: Id() });
export const PrivilegeParams = Type.Object({ cid: Id(), privilege: Type.String({ maxLength: 100 }) });
export const ModeratorParams = Type.Object({ cid: Id(), uid: Id() });
export const MemberBody = Type.Object({ member: Type.String({ maxLength: 255 }) });
export const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 20 })) });

const Flags = Type.Record(Type.String(), Type.Boolean());
const PrivilegeKeys = Type.Object({ users: Type.Array(Type.String()), groups: Type.Array(Type.String()) });
const LabelData = Type.Array(Type.Object({ label: Type.String(), type: Type.String() }));
const GroupGrants = Type.Object({
  name: Type.String(),
  nameEscaped: Type.String(),
  privileges: Flags,
  types: Type.Record(Type.String(), Type.String()),
  isPrivate: Type.Boolean(),
  isSystem: Type.Boolean(),
});

/** NodeBB's privilege table around the members' rows, which differ per route (see below). */
function PrivilegeTable<U extends TSchema>(user: U) {
  return Type.Object({
    labelData: LabelData,
    users: Type.Array(user),
    groups: Type.Array(GroupGrants),
    keys: PrivilegeKeys,
    columnCountUserOther: Type.Number(),
    columnCountGroupOther: Type.Number(),
  });
}

const MemberIcon = { 'icon:text': Type.String(), 'icon:bgColor': Type.String() };

/** GET /api/v3/categories/{cid}/privileges: NodeBB documents members by name here. */
export const PrivilegeListSchema = PrivilegeTable(
  Type.Object({ name: Type.String(), nameEscaped: Type.String(), privileges: Flags, isPrivate: Type.Boolean(), isSystem: Type.Boolean() }),
);

/** PUT/DELETE /api/v3/categories/{cid}/privileges/{privilege}: `banned` is 0/1 here. */
export const PrivilegeChangeSchema = PrivilegeTable(
  Type.Object({
    uid: Type.Number(),
    username: Type.String(),
    displayname: Type.String(),
    picture: Type.String(),
    ...MemberIcon,
    banned: Type.Number(),
    banned_until_readable: Type.String(),
    privileges: Flags,
  }),
);

/** PUT/DELETE /api/v3/categories/{cid}/moderator/{uid}: `banned` is a boolean here, with isLocal and types. */
export const ModeratorChangeSchema = PrivilegeTable(
  Type.Object({
    uid: Type.Number(),
    isLocal: Type.Boolean(),
    username: Type.String(),
    displayname: Type.String(),
    picture: Type.String(),
    ...MemberIcon,
    banned: Type.Boolean(),
    banned_until: Type.Number(),
    banned_until_readable: Type.String(),
    privileges: Flags,
    types: Type.Record(Type.String(), Type.String()),
  }),
);

/** The viewer's privileges in a category (ViewerPrivileges). */
export const ViewerPrivilegesSchema = Type.Record(Type.String(), Type.Boolean());

/** PUT /categories/{cid}/watch: NodeBB's body; `uid` lets an administrator set another member's state. */
export const WatchBody = Type.Object({
  state: Type.Union([Type.Literal('watching'), Type.Literal('tracking'), Type.Literal('notwatching'), Type.Literal('ignoring')]),
  uid: Type.Optional(Id()),
});
/** DELETE /categories/{cid}/watch: back to the forum's default state. */
export const UnwatchBody = Type.Optional(Type.Object({ uid: Type.Optional(Id()) }));
/** The cids whose state changed (the category and its descendants), as strings like NodeBB's. */
export const WatchAnswer = Type.Object({ modified: Type.Array(Type.String()) });
