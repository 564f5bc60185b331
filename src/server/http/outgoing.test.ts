import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForbiddenAddress, OutgoingGuard, OutgoingRefused } from './outgoing.js';

/** A receiver on loopback that counts what reaches it. */
let server: Server;
let port = 0;
let hits = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits += 1;
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('addresses the server may not send to', () => {
  it('refuses loopback, private, link-local, unique-local, multicast, unspecified and embedded IPv4 forms', () => {
    for (const a of [
      '127.0.0.1',
      '127.5.6.7',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      'not an address',
    ])
      expect(isForbiddenAddress(a), a).toBe(true);
  });

  it('lets public addresses through', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(isForbiddenAddress(a), a).toBe(false);
  });
});

describe('the outgoing guard', () => {
  const guard = new OutgoingGuard();

  it('refuses a name that resolves to loopback and every literal form of it, and nothing reaches the receiver', async () => {
    const before = hits;
    for (const host of ['localhost', '127.0.0.1', '[::ffff:127.0.0.1]', '0x7f.1', '2130706433', '127.1', '[::1]', '0.0.0.0']) {
      await expect(guard.request(`http://${host}:${port}/`, { timeoutMs: 2000 }), host).rejects.toBeInstanceOf(OutgoingRefused);
    }
    expect(hits).toBe(before);
  });

  it('checks a URL before it is kept: loopback names and literals are refused, an unresolvable name passes', async () => {
    for (const url of ['https://localhost/push', 'https://vm/push', 'https://[::ffff:127.0.0.1]/push', 'https://0x7f.1/push', 'https://10.0.0.1/push']) {
      await expect(guard.assertPublic(url), url).rejects.toBeInstanceOf(OutgoingRefused);
    }
    await expect(guard.assertPublic('https://push.example.com/abc')).resolves.toBeUndefined();
    await expect(guard.assertPublic('https://93.184.216.34/abc')).resolves.toBeUndefined();
  });

  it('reaches a host the configuration allows (tests only), and never follows a redirect', async () => {
    const allowed = new OutgoingGuard(['127.0.0.1']);
    const res = await allowed.request(`http://127.0.0.1:${port}/`, { timeoutMs: 2000 });
    expect([res.status, res.body.toString()]).toEqual([200, 'reached']);
    const redirect = await allowed.request(`http://127.0.0.1:${port}/redirect`, { timeoutMs: 2000 });
    expect(redirect.status).toBe(302);
    // The allowance names a host as written: another name for the same address is still checked.
    await expect(allowed.request(`http://localhost:${port}/`, { timeoutMs: 2000 })).rejects.toBeInstanceOf(OutgoingRefused);
  });

  it('refuses other protocols', async () => {
    await expect(guard.request('file:///etc/passwd', { timeoutMs: 1000 })).rejects.toBeInstanceOf(OutgoingRefused);
    await expect(guard.request('ftp://93.184.216.34/', { timeoutMs: 1000 })).rejects.toBeInstanceOf(OutgoingRefused);
  });
});
