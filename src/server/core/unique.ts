import { AppError, badRequest } from '../http/errors.js';

/**
 * The unique indexes whose violation a member can cause (two requests racing past the checks,
 * or a name taken since the form was shown), and the error each answers. SQLite names the
 * table and columns (`UNIQUE constraint failed: users.email`) or the index of an expression;
 * PostgreSQL gives code 23505 and the constraint's (index's) name. One list, read by the action
 * runner for every write, so no write path answers a 500 for a taken name.
 */
const TAKEN: [RegExp, string][] = [
  [/\busers[._]email\b|users_email/, 'error:email-taken'],
  [/\busers[._](username|userslug)|users_username_lower|users_userslug/, 'error:username-taken'],
  [/registration_queue[._]email|registration_queue_email/, 'error:email-taken'],
  [/registration_queue[._]userslug|registration_queue_slug/, 'error:username-taken'],
  [/categories[._]handle|categories_handle/, 'error:category-handle-taken'],
  [/\bgroups[._](name|slug)|groups_name|groups_slug|groups_pkey/, 'error:group-already-exists'],
];

/** True for a unique-index violation, on SQLite or PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '23505') return true;
  return typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && /UNIQUE|PRIMARY KEY/i.test(String(e.message));
}

/** The "taken" error a unique violation stands for, or null (not one, or an index no member can race on). */
export function takenError(err: unknown): AppError | null {
  if (!isUniqueViolation(err)) return null;
  const e = err as { constraint?: unknown; message?: unknown; table?: unknown };
  const where = `${String(e.constraint ?? '')} ${String(e.message ?? '')}`;
  for (const [pattern, key] of TAKEN) if (pattern.test(where)) return badRequest(key);
  return null;
}
