import { Type } from 'typebox';

/** A tag as page data and API answers show it. */
export const TagRefSchema = Type.Object({ value: Type.String(), valueEscaped: Type.String(), score: Type.Number() });

/** A tag in a path. */
export const TagParams = Type.Object({ tag: Type.String({ minLength: 1, maxLength: 200 }) });
