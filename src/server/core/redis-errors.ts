import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Gives an ioredis client its 'error' listener (without one, Node ends the process on the
 * first error) that logs an outage once: ioredis emits an error at every reconnection attempt,
 * several a second while Redis is away, which buried the log. The first error of an outage is
 * logged; the rest are not until the client is ready again, which is logged too.
 */
export function reportRedisErrors(client: Redis, log: Pick<FastifyBaseLogger, 'error' | 'info'>, name: string): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.error({ err: err.message, redis: name }, 'redis connection lost; reconnecting (further errors are not logged until it is back)');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ redis: name }, 'redis connection back');
  });
}
