import { Type } from 'typebox';
import { Id, IdOrZero, Int } from '../../http/input.js';
import { UserSummarySchema } from '../users/schemas.js';

/** The short category reference topic lists carry (presentRef). */
export const CategoryRefSchema = Type.Object({
  cid: Type.Number(),
  name: Type.String(),
  handle: Type.String(),
  slug: Type.String(),
  icon: Type.String(),
  bgColor: Type.String(),
  color: Type.String(),
});

/** A category as the v3 API answers (presentCategory). */
export const CategorySchema = Type.Object({
  ...CategoryRefSchema.properties,
  description: Type.String(),
  descriptionParsed: Type.String(),
  parentCid: Type.Number(),
  order: Type.Number(),
  link: Type.String(),
  disabled: Type.Boolean(),
  topic_count: Type.Number(),
  post_count: Type.Number(),
});

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
};

/** POST /api/v3/categories. The name is optional here so a missing one gets its own key. */
export const CreateBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 1024 })), ...Fields });

/** PUT /api/v3/categories/{cid}: any subset of the fields. */
export const UpdateBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 1024 })), ...Fields });

export const CidParams = Type.Object({ cid: Id() });
export const PrivilegeParams = Type.Object({ cid: Id(), privilege: Type.String({ maxLength: 100 }) });
export const ModeratorParams = Type.Object({ cid: Id(), uid: Id() });
export const MemberBody = Type.Object({ member: Type.String({ maxLength: 255 }) });
export const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 20 })) });

/** The grants of a category (admins). */
export const PrivilegeSetSchema = Type.Object({
  cid: Type.Number(),
  keys: Type.Array(Type.String()),
  groups: Type.Array(Type.Object({ name: Type.String(), privileges: Type.Record(Type.String(), Type.Boolean()) })),
  users: Type.Array(
    Type.Object({
      uid: Type.Number(),
      username: Type.String(),
      displayname: Type.String(),
      picture: Type.String(),
      privileges: Type.Record(Type.String(), Type.Boolean()),
    }),
  ),
});

/** The viewer's privileges in a category (ViewerPrivileges). */
export const ViewerPrivilegesSchema = Type.Record(Type.String(), Type.Boolean());

// The topics domain owns the full topic shape; this names what a category list relies on
// and passes the rest through.
const TopicSummarySchema = Type.Object(
  {
    tid: Type.Number(),
    cid: Type.Number(),
    title: Type.String(),
    slug: Type.String(),
    user: Type.Optional(UserSummarySchema),
  },
  { additionalProperties: true },
);

/** GET /api/v3/categories/{cid}/topics. */
export const TopicsResponse = Type.Object({
  topics: Type.Array(TopicSummarySchema),
  count: Type.Number(),
  page: Type.Number(),
  pageCount: Type.Number(),
  nextStart: Type.Number(),
  privileges: ViewerPrivilegesSchema,
});
