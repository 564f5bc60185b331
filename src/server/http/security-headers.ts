import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.js';
import type { SettingsService } from '../domains/settings/service.js';
import { PROVIDER_ORIGINS, type CaptchaProvider } from '../plugins/captcha/third-party.js';

/**
 * The security headers (helmet's) for every response. The client needs no inline
 * script: its entry is a module script from /assets/, and the page data and client config
 * are JSON script elements, which browsers never execute. Style attributes stay allowed
 * (posts keep table cell alignment, React sets a few); style elements come from 'self' only.
 */
/** The origins of a separate socket server (PALAVER_WEBSOCKET_ADDRESS), in http(s) and ws(s) form; none when it is this server. */
function socketOrigins(address: string): string[] {
  if (!address) return [];
  const url = new URL(address);
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  return [`${secure ? 'https' : 'http'}://${url.host}`, `${secure ? 'wss' : 'ws'}://${url.host}`];
}

export function securityHeaders(config: Pick<Config, 'url' | 'websocketAddress'>, captcha: CaptchaProvider = 'altcha'): HelmetOptions {
  const https = config.url.startsWith('https:');
  // A third-party captcha's origins, only while the admin has chosen it (ALTCHA needs none).
  const third = captcha === 'altcha' ? { script: [], frame: [], style: [], connect: [] } : PROVIDER_ORIGINS[captcha];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        'script-src': ["'self'", ...third.script],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", ...third.style],
        'style-src-attr': ["'unsafe-inline'"],
        // Posts and avatars may show images from anywhere, as NodeBB does.
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'font-src': ["'self'", 'data:'],
        // 'self' covers the socket.io WebSocket on the same host; a websocketAddress elsewhere is allowed too (its ws/wss twin included).
        'connect-src': ["'self'", ...socketOrigins(config.websocketAddress), ...third.connect],
        ...(third.frame.length ? { 'frame-src': ["'self'", ...third.frame] } : {}),
        'worker-src': ["'self'"],
        'manifest-src': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'self'"],
        // Only on https: on plain http it would send the page's own requests to a port that
        // does not answer.
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // Browsers ignore HSTS over http; sending it there only confuses a later https move.
    strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'sameorigin' },
  };
}

/** The headers helmet sets for these options, worked out once (helmet's middleware on a stub response). */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
  });
  return headers;
}

/**
 * Sets the security headers on every response. Helmet computes them; @fastify/helmet would
 * rebuild helmet (parse every directive) on each request, a few per cent of a cached guest
 * page's CPU, while the values never change: they are computed once at start-up instead, one
 * set per captcha provider, and each request takes the set of the provider in force (the
 * settings' cache: a third party's origins are allowed only while the admin chose it).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'url' | 'websocketAddress'>, settings?: Pick<SettingsService, 'get' | 'peek'>): void {
  const sets = Object.fromEntries((['altcha', 'recaptcha', 'hcaptcha'] as const).map((p) => [p, helmetHeaders(securityHeaders(config, p))])) as Record<CaptchaProvider, Record<string, string>>;
  if (!settings) {
    app.addHook('onRequest', (_req, reply, done) => {
      reply.headers(sets.altcha);
      done();
    });
    return;
  }
  // Callback style: with the settings cached (nearly always) no promise per request.
  app.addHook('onRequest', (_req, reply, done) => {
    const fresh = settings.peek();
    if (fresh) {
      reply.headers(sets[fresh['captcha:provider']] ?? sets.altcha);
      return done();
    }
    settings.get().then((s) => {
      reply.headers(sets[s['captcha:provider']] ?? sets.altcha);
      done();
    }, done);
  });
}
