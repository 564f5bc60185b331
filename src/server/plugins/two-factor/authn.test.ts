/**
 * Security keys (WebAuthn, the 2factor plugin's `authn` variant) over real HTTP, answered by a
 * small software authenticator made here: an ES256 key pair, 'none' attestation, CBOR from
 * @simplewebauthn/server's helpers, signatures made as a hardware key makes them.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

interface CreationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string };
  excludeCredentials?: { id: string }[];
}
interface RequestOptions {
  challenge: string;
  rpId: string;
  allowCredentials?: { id: string }[];
}

/** A software security key: one credential, a signature counter it raises on each use. */
class SoftKey {
  readonly id = randomBytes(16);
  counter = 0;
  private readonly key: KeyObject;
  private readonly cose: Uint8Array;

  constructor(readonly origin = 'http://127.0.0.1') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.key = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    this.cose = isoCBOR.encode(cose);
  }

  get credentialId(): string {
    return b64(this.id);
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): the registration response as @simplewebauthn/browser sends it. */
  create(options: CreationOptions) {
    const flags = 0x01 | 0x40; // user present, attested credential data
    const authData = Buffer.concat([
      sha256(options.rp.id),
      Buffer.from([flags]),
      u32(this.counter),
      Buffer.alloc(16),
      Buffer.from([0, this.id.length]),
      this.id,
      this.cose,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
      response: { clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)), attestationObject: b64(attestationObject), transports: ['usb'] },
    };
  }

  /** navigator.credentials.get(): an assertion over the options' challenge, with the counter raised (or as given). */
  get(options: RequestOptions, counter = ++this.counter) {
    const authData = Buffer.concat([sha256(options.rpId), Buffer.from([0x01]), u32(counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.key);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature) },
    };
  }
}

async function whoAmI(client: HttpClient): Promise<number> {
  return ((await client.get('/api/config')).body as { uid: number }).uid;
}

/** A logged-in member who added a security key on their 2factor page. */
async function withKey(opts: { admin?: boolean } = {}) {
  const { client, user } = await forum.loginAs({ admin: opts.admin });
  const key = new SoftKey();
  const options = (await client.post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).body.response as CreationOptions;
  const added = await client.post(`/api/v3/users/${user.uid}/2fa/authn`, { label: 'Blue USB key', response: key.create(options) });
  expect(added.status).toBe(200);
  return { client, user, key, added: added.body.response as { key: { id: string; label: string }; backupCodes: string[] | null } };
}

/** The password step: a client holding the pending cookie (no session yet). */
async function passwordStep(username: string): Promise<HttpClient> {
  const client = forum.client();
  const res = await client.post('/login', { username, password: TEST_PASSWORD });
  expect(res.body).toEqual({ next: '/login/2fa', uid: 0 });
  return client;
}

async function loginOptions(client: HttpClient): Promise<RequestOptions> {
  const res = await client.post('/login/2fa/authn/options', {});
  expect(res.status).toBe(200);
  return res.body as RequestOptions;
}

describe('adding a security key', () => {
  it('registers a key with its label, gives backup codes with the first factor, and lists it on the 2factor page', async () => {
    const { client, user } = await forum.loginAs();
    const key = new SoftKey();
    const options = (await client.post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).body.response as CreationOptions;
    // The relying party is the forum's host (config.url); the member is named, not numbered.
    expect(options.rp.id).toBe('127.0.0.1');
    expect(options.user.name).toBe(user.username);
    expect(options.user.id).not.toBe(String(user.uid));
    const response = key.create(options);
    const added = await client.post(`/api/v3/users/${user.uid}/2fa/authn`, { label: '  Blue   USB key ', response });
    expect(added.status).toBe(200);
    expect(added.body.response.key).toMatchObject({ id: key.credentialId, label: 'Blue USB key', transports: ['usb'], lastUsed: 0 });
    expect(added.body.response.backupCodes).toHaveLength(10);

    // The challenge works once: the same answer again is refused.
    const again = await client.post(`/api/v3/users/${user.uid}/2fa/authn`, { label: 'Copy', response });
    expect(again.status).toBe(400);
    expect(again.body.status.key).toBe('error:two-factor-authn-expired');

    // A second key: no new backup codes (the first ones stay), and the first key is excluded.
    const second = new SoftKey();
    const options2 = (await client.post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).body.response as CreationOptions;
    expect(options2.excludeCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    const added2 = await client.post(`/api/v3/users/${user.uid}/2fa/authn`, { label: 'Phone', response: second.create(options2) });
    expect(added2.body.response.backupCodes).toBeNull();

    const page = await client.get(`/api/user/${user.userslug}/2factor`);
    expect(page.body).toMatchObject({ template: { name: 'account/2factor' }, enabled: false, backupCodesLeft: 10 });
    expect((page.body.keys as { label: string }[]).map((k) => k.label)).toEqual(['Blue USB key', 'Phone']);
    const list = await client.get(`/api/v3/users/${user.uid}/2fa/authn`);
    expect((list.body.response.keys as { id: string }[]).map((k) => k.id)).toEqual([key.credentialId, second.credentialId]);
    // Nothing but the public key is stored; the row holds what the key reported.
    const row = await forum.ctx.db.selectFrom('webauthn_credentials').selectAll().where('id', '=', key.credentialId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ uid: user.uid, label: 'Blue USB key', transports: '["usb"]' });
    expect(Number(row.counter)).toBe(0);
  });

  it('refuses an answer made for another site, an empty label, and another member adding or listing keys', async () => {
    const { client, user } = await forum.loginAs();
    const options = (await client.post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).body.response as CreationOptions;
    const phished = await client.post(`/api/v3/users/${user.uid}/2fa/authn`, {
      label: 'Key',
      response: new SoftKey('https://palaver.example.evil').create(options),
    });
    expect(phished.status).toBe(400);
    expect(phished.body.status.key).toBe('error:two-factor-authn-failed');
    const opts2 = (await client.post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).body.response as CreationOptions;
    const blank = await client.post(`/api/v3/users/${user.uid}/2fa/authn`, { label: '   ', response: new SoftKey().create(opts2) });
    expect(blank.body.status.key).toBe('error:two-factor-authn-label-required');
    expect(await forum.ctx.db.selectFrom('webauthn_credentials').select('id').where('uid', '=', user.uid).execute()).toEqual([]);

    const { client: other } = await forum.loginAs();
    expect((await other.post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).status).toBe(403);
    expect((await other.get(`/api/v3/users/${user.uid}/2fa/authn`)).status).toBe(403);
    // A guest is not asked at all.
    expect((await forum.client().post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).status).toBe(401);
  });
});

describe('logging in with a security key', () => {
  it('asks for the key after the password, logs in with it, and records the counter and last use', async () => {
    const { user, key } = await withKey();
    const client = await passwordStep(user.username);
    expect(await whoAmI(client)).toBe(0);
    expect((await client.get('/login/2fa/variants')).body).toEqual({ variants: ['authn', 'backup'] });
    expect((await client.get('/api/login/2fa/authn')).body).toMatchObject({ template: { name: 'login-2fa' }, variant: 'authn', reauth: false });
    const options = await loginOptions(client);
    expect(options.rpId).toBe('127.0.0.1');
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    const res = await client.post('/login/2fa/authn', { response: key.get(options), next: '/recent' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ next: '/recent' });
    expect(await whoAmI(client)).toBe(user.uid);
    const row = await forum.ctx.db.selectFrom('webauthn_credentials').selectAll().where('id', '=', key.credentialId).executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
    expect(Number(row.last_used)).toBeGreaterThan(Date.now() - 60_000);
    await client.refreshCsrf();
    const page = await client.get(`/api/user/${user.userslug}/2factor`);
    expect(page.body.keys[0].lastUsedISO).not.toBe('');
  });

  it('refuses a replayed answer (challenge used) and a cloned key (counter not raised)', async () => {
    const { user, key } = await withKey();
    const first = await passwordStep(user.username);
    const options = await loginOptions(first);
    const answer = key.get(options);
    expect((await first.post('/login/2fa/authn', { response: answer })).status).toBe(200);

    // The same answer on another password step: its challenge is spent.
    const second = await passwordStep(user.username);
    await loginOptions(second);
    const replay = await second.post('/login/2fa/authn', { response: answer });
    expect(replay.status).toBe(400);
    expect(replay.body.status.key).toBe('error:two-factor-authn-expired');
    expect(await whoAmI(second)).toBe(0);

    // A fresh challenge signed with a counter that did not grow: a copy of the key.
    const cloned = await second.post('/login/2fa/authn', { response: key.get(await loginOptions(second), key.counter) });
    expect(cloned.status).toBe(400);
    expect(cloned.body.status.key).toBe('error:two-factor-authn-replayed');
    expect(await whoAmI(second)).toBe(0);
  });

  it("refuses another member's key and a challenge handed to another login", async () => {
    const a = await withKey();
    const b = await withKey();
    const client = await passwordStep(b.user.username);
    const options = await loginOptions(client);
    // A's key signs B's challenge: it is not B's key.
    const wrong = await client.post('/login/2fa/authn', { response: a.key.get(options) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.status.key).toBe('error:two-factor-authn-unknown-key');
    expect(await whoAmI(client)).toBe(0);

    // A challenge belongs to the login it was given to: another login of B cannot answer it.
    const other = await passwordStep(b.user.username);
    const stolen = await other.post('/login/2fa/authn', { response: b.key.get(await loginOptions(client)) });
    expect(stolen.body.status.key).toBe('error:two-factor-authn-expired');
    // Without a password step there is nothing to answer.
    const guest = forum.client();
    expect((await guest.post('/login/2fa/authn/options', {})).body.status.key).toBe('error:two-factor-login-expired');
  });

  it('counts key attempts with the code attempts (brute force)', async () => {
    const { user, key } = await withKey();
    const client = await passwordStep(user.username);
    // Adding the key was the first attempt in the window.
    for (let i = 0; i < 4; i++)
      expect((await client.post('/login/2fa/authn', { response: key.get({ challenge: 'A'.repeat(43), rpId: '127.0.0.1' }) })).status).toBe(400);
    const limited = await client.post('/login/2fa/authn', { response: key.get(await loginOptions(client)) });
    expect(limited.status).toBe(429);
    expect(limited.body.status.key).toBe('error:too-many-two-factor-attempts');
    expect(await whoAmI(client)).toBe(0);
  });

  it('lets an admin with a key back into the admin area with it (re-authentication)', async () => {
    const { client, user, key } = await withKey({ admin: true });
    await forum.ctx.db
      .updateTable('sessions')
      .set({ reauth_until: Date.now() - 1 })
      .where('uid', '=', user.uid)
      .execute();
    expect((await client.get('/api/admin/config')).headers.get('x-redirect')).toBe('/login/2fa?next=%2Fadmin%2Fconfig');
    expect((await client.get('/api/login/2fa?next=/admin')).body).toMatchObject({
      reauth: true,
      variant: 'authn',
      chosen: false,
      variants: ['authn', 'backup'],
    });
    const res = await client.post('/login/2fa/authn', { response: key.get(await loginOptions(client)), next: '/admin' });
    expect(res.body).toEqual({ next: '/admin' });
    expect((await client.get('/api/admin/config')).headers.get('x-redirect')).toBeNull();
  });
});

describe('managing security keys', () => {
  it('renames a key; removes it only with the password, and then the password alone logs in', async () => {
    const { client, user, key } = await withKey();
    const id = key.credentialId;
    expect((await client.put(`/api/v3/users/${user.uid}/2fa/authn/${id}`, { label: 'Keyring' })).status).toBe(200);
    expect((await client.put(`/api/v3/users/${user.uid}/2fa/authn/nope`, { label: 'X' })).status).toBe(404);
    const { client: other } = await forum.loginAs();
    expect((await other.put(`/api/v3/users/${user.uid}/2fa/authn/${id}`, { label: 'Mine' })).status).toBe(403);
    expect((await other.del(`/api/v3/users/${user.uid}/2fa/authn/${id}`, { password: TEST_PASSWORD })).status).toBe(403);
    expect((await client.get(`/api/v3/users/${user.uid}/2fa/authn`)).body.response.keys[0].label).toBe('Keyring');

    const wrong = await client.del(`/api/v3/users/${user.uid}/2fa/authn/${id}`, { password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.status.key).toBe('user:change-password-error-wrong-current');
    expect((await client.del(`/api/v3/users/${user.uid}/2fa/authn/${id}`, { password: TEST_PASSWORD })).status).toBe(200);
    // No second factor left: the backup codes went with the last key.
    expect((await client.get(`/api/user/${user.userslug}/2factor`)).body).toMatchObject({ keys: [], backupCodesLeft: 0 });
    const next = forum.client();
    expect((await next.post('/login', { username: user.username, password: TEST_PASSWORD })).body.uid).toBe(user.uid);
  });

  it('keeps the backup codes while a TOTP key or a security key remains', async () => {
    const { client, user, added } = await withKey();
    // An admin may remove a lost key for a member (no password of theirs asked).
    const admin = await forum.loginAs({ admin: true });
    const second = new SoftKey();
    const opts = (await client.post(`/api/v3/users/${user.uid}/2fa/authn/options`, {})).body.response as CreationOptions;
    expect((await client.post(`/api/v3/users/${user.uid}/2fa/authn`, { label: 'Spare', response: second.create(opts) })).status).toBe(200);
    expect((await admin.client.del(`/api/v3/users/${user.uid}/2fa/authn/${added.key.id}`, {})).status).toBe(200);
    expect((await client.get(`/api/user/${user.userslug}/2factor`)).body).toMatchObject({ backupCodesLeft: 10 });
    // A backup code still logs in with the remaining key's factor.
    const login = await passwordStep(user.username);
    expect((await login.post('/login/2fa/backup', { code: added.backupCodes![0] })).status).toBe(200);
    expect(await whoAmI(login)).toBe(user.uid);
  });
});
