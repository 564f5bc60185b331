import { createHash } from 'node:crypto';
import { verify } from '@node-rs/argon2';

/**
 * Password hashes a member may still have from the forum they moved from (an import of
 * NodeBB): bcrypt (`$2a$`, `$2b$`, `$2y$`), or bcrypt over the SHA-512 hex of the password,
 * marked `sha512:` (NodeBB's `password:shaWrapped`). Verified once, at the next login, then
 * replaced by an argon2 hash; Palaver never writes one.
 */
export function isLegacyHash(stored: string): boolean {
  return stored.startsWith('$2') || stored.startsWith('sha512:$2');
}

/** True when the password matches the stored hash, whichever kind it is (argon2, or a legacy one). */
export async function checkPassword(stored: string, password: string): Promise<boolean> {
  if (!isLegacyHash(stored)) return verify(stored, password).catch(() => false);
  // bcryptjs (pure JavaScript) only for the few members who still have such a hash: loaded on first use.
  const { compare } = await import('bcryptjs');
  const wrapped = stored.startsWith('sha512:');
  const input = wrapped ? createHash('sha512').update(password).digest('hex') : password;
  return compare(input, wrapped ? stored.slice('sha512:'.length) : stored).catch(() => false);
}
