import { Type } from 'typebox';

/** A tag as page data and API answers show it (NodeBB's TopicObject tag). */
export { TopicTagSchema as TagRefSchema } from '../../../shared/schemas/tag.js';

/** A tag in a path. */
export const TagParams = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 200 }) });
