import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { Config } from '../config.js';

/**
 * The security headers (@fastify/helmet) for every response. The client needs no inline
 * script: its entry is a module script from /assets/, and the page data and client config
 * are JSON script elements, which browsers never execute. Style attributes stay allowed
 * (posts keep table cell alignment, React sets a few); style elements come from 'self' only.
 */
export function securityHeaders(config: Pick<Config, 'url'>): FastifyHelmetOptions {
  const https = config.url.startsWith('https:');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'"],
        'style-src-attr': ["'unsafe-inline'"],
        // Posts and avatars may show images from anywhere, as NodeBB does.
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'font-src': ["'self'", 'data:'],
        // 'self' covers the socket.io WebSocket on the same host.
        'connect-src': ["'self'"],
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
