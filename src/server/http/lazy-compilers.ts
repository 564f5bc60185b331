import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own schema compilers (ajv for input, fast-json-stringify for output), made lazy:
 * a route's validator or serializer is compiled on its first use instead of at start-up.
 * With some 900 routes, compiling every schema up front was over half of the start-up
 * (spawn to first answer 2.3 s on a quiet bench machine); most routes are not called in a
 * process's first seconds, and many (admin, rare API calls) never are: their compiled code
 * is never held in memory. A route's first request pays its compilation (about a millisecond).
 * `compileAll()` compiles whatever is still pending: a test runs it, so a schema that cannot
 * compile fails CI as it failed start-up before.
 */
type ValidatorFn = ((data: unknown, ctx?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type SerializerFn = (data: unknown) => string;
type Factory<F> = (externalSchemas: unknown, options: unknown) => (route: unknown) => F;

export interface LazyCompilers {
  compilersFactory: { buildValidator: Factory<ValidatorFn>; buildSerializer: Factory<SerializerFn> };
  /** How many validators and serializers are not compiled yet. */
  pending(): number;
  /** Compiles up to `limit` pending schemas (all when omitted); the number compiled. */
  compileAll(limit?: number): number;
}

export function lazyCompilers(): LazyCompilers {
  const pending = new Set<() => void>();
  const ajv = AjvCompiler() as unknown as Factory<ValidatorFn>;
  const fjs = SerializerSelector() as unknown as Factory<SerializerFn>;

  /** A getter that compiles on first call (or when compileAll forces it), once. */
  const deferred = <F>(compile: () => F): (() => F) => {
    let fn: F | undefined;
    const force = () => {
      pending.delete(force);
      fn ??= compile();
      return fn;
    };
    pending.add(force);
    return () => fn ?? force();
  };

  const buildValidator: Factory<ValidatorFn> = (externalSchemas, options) => {
    const compile = ajv(externalSchemas, options);
    return (route) => {
      const get = deferred(() => compile(route));
      const lazy: ValidatorFn = (data, ctx) => {
        const f = get();
        const ok = f(data, ctx);
        lazy.errors = f.errors;
        return ok;
      };
      // Fastify passes the parent object (so ajv may coerce a root value) only to functions
      // that carry ajv's schemaEnv; every function here is one of ajv's.
      lazy.schemaEnv = true;
      return lazy;
    };
  };

  const buildSerializer: Factory<SerializerFn> = (externalSchemas, options) => {
    const compile = fjs(externalSchemas, options);
    return (route) => {
      const get = deferred(() => compile(route));
      return (data) => get()(data);
    };
  };

  return {
    compilersFactory: { buildValidator, buildSerializer },
    pending: () => pending.size,
    compileAll(limit = Infinity) {
      let n = 0;
      for (const force of pending) {
        if (n >= limit) break;
        force();
        n++;
      }
      return n;
    },
  };
}
