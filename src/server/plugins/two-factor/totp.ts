import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** How many backup codes a member gets at once (shown once). */
export const BACKUP_CODE_COUNT = 10;
// Codes from the previous and next 30-second step are accepted: phones' clocks drift.
const TOLERANCE_SEC = 30;
const PERIOD_SEC = 30;
// No 0/O or 1/I/L: a backup code is read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A new base32 TOTP secret. */
export function newSecret(): string {
  return generateSecret();
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function otpauthUri(issuer: string, label: string, secret: string): string {
  return generateURI({ issuer, label, secret });
}

/** The QR code of an address as an SVG data URL, made here: no outside service sees the secret. */
export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The time step a six-digit code is valid for, or null when it is not valid now. */
export async function codeStep(secret: string, code: string): Promise<number | null> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const now = Math.floor(Date.now() / 1000);
  const result = await verify({ secret, token, epoch: now, epochTolerance: TOLERANCE_SEC });
  // The step the code belongs to: the current one shifted by the drift otplib found.
  return result.valid ? Math.floor(now / PERIOD_SEC) + result.delta : null;
}

/** Ten new backup codes ("abcde-fghjk"): about 49 bits each. */
export function newBackupCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const c = one();
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

/** The stored hash of a backup code for a member (case, spaces and dashes ignored). */
export function backupHash(uid: number, code: string): string {
  const norm = code.toLowerCase().replace(/[\s-]+/g, '');
  return createHash('sha256').update(`${uid}:${norm}`).digest('base64url');
}
