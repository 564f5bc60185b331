// Logging bench members in over HTTP, as a browser does (the live, chat and upload cases).

/** The `name=value` part of each Set-Cookie of an answer. */
export const cookiesOf = (res) => res.headers.getSetCookie().map((c) => c.split(';')[0]);

/** Logs a member in; returns the session cookie and its CSRF token. */
export async function login(base, username, password) {
  const cfg = await fetch(`${base}/api/config`);
  const guest = cookiesOf(cfg).join('; ');
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': (await cfg.json()).csrf_token, cookie: guest },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${await res.text()}`);
  const cookie = cookiesOf(res).find((c) => c.startsWith('palaver.sid='));
  const csrf = (await (await fetch(`${base}/api/config`, { headers: { cookie } })).json()).csrf_token;
  return { cookie, csrf };
}
