import { Type } from 'typebox';
import { Id } from '../../http/input.js';

/** A member's public summary. */
export const UserSummarySchema = Type.Object({
  uid: Type.Number(),
  username: Type.String(),
  userslug: Type.String(),
  displayname: Type.String(),
  fullname: Type.String(),
  picture: Type.String(),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
  status: Type.String(),
  postcount: Type.Number(),
  reputation: Type.Number(),
  banned: Type.Boolean(),
});

/** A member as the /api/v3/users routes answer: NodeBB's UserObj. */
export { UserObjSchema as UserSchema, UserSettingsObjSchema } from '../../../shared/schemas/user.js';

export const UserSettingsSchema = Type.Object(
  {
    openSidebars: Type.Optional(Type.Union([Type.Literal('on'), Type.Literal('off')])),
    bootswatchSkin: Type.Optional(Type.String({ maxLength: 20 })),
    topicPostSort: Type.Optional(Type.Union([Type.Literal('oldest_to_newest'), Type.Literal('newest_to_oldest'), Type.Literal('most_votes')])),
    usePagination: Type.Optional(Type.Boolean()),
    topicsPerPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    postsPerPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    userLang: Type.Optional(Type.String({ maxLength: 10 })),
    timezone: Type.Optional(Type.String({ maxLength: 64 })),
    showemail: Type.Optional(Type.Boolean()),
    showfullname: Type.Optional(Type.Boolean()),
    followTopicsOnCreate: Type.Optional(Type.Boolean()),
    followTopicsOnReply: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UidParams = Type.Object({ uid: Id() });
