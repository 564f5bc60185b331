import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ForumSettings } from '../../../shared/constants.js';
import type { AppContext } from '../../context.js';
import { Type } from 'typebox';
import { Envelope, ok } from '../../http/envelope.js';
import { badRequest } from '../../http/errors.js';
import type { IncomingFile } from '../uploads/service.js';
import { contentHash, customCssOn, customJsOn } from './appearance-assets.js';
import { BRAND_UPLOADS, uploadBrandImage, type BrandRoute } from './appearance-brand.js';

/** The multipart body of a brand upload (read as a stream, not parsed into the body). */
const BrandFiles = Type.Optional(Type.Object({ files: Type.Optional(Type.Array(Type.String({ format: 'binary' }))) }));

/** The one file of a brand upload, within the forum's size limit (a larger one is a 413). */
async function readOne(ctx: AppContext, req: FastifyRequest): Promise<IncomingFile[]> {
  if (!req.isMultipart()) throw badRequest('error:no-upload');
  const { maximumFileSize } = await ctx.uploads.limits();
  const out: IncomingFile[] = [];
  try {
    for await (const part of req.files({ limits: { fileSize: maximumFileSize * 1024, files: 1, fields: 5, parts: 6 } })) {
      const bytes = await part.toBuffer();
      if (bytes.length) out.push({ name: part.filename, bytes });
    }
  } catch (err) {
    req.raw.resume();
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw ctx.uploads.tooBig(maximumFileSize);
    throw badRequest('error:no-upload');
  }
  return out;
}

/**
 * GET /assets/custom.css and /assets/custom.js: the admin's stylesheet and script as files of
 * their own (text/css, text/javascript; nosniff comes with the security headers), so a
 * `</style>` or `<script>` in them is just text of that file. The script is a 404 unless
 * "enable custom JavaScript" is on. With the current hash as ?v= the file is cached for a
 * year (a change gives a new URL); otherwise it is revalidated.
 */
export function registerAppearanceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const serve = (path: string, type: string, pick: (s: ForumSettings) => string | null) =>
    app.get(path, { config: { skipAuth: true } }, async (req, reply) => {
      const body = pick(await ctx.settings.get());
      if (body === null) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      const v = (req.query as Record<string, unknown>).v;
      reply.header('cache-control', v === contentHash(body) ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.type(type).send(body);
    });
  serve('/assets/custom.css', 'text/css; charset=utf-8', (s) => (customCssOn(s) ? s.customCSS : null));
  serve('/assets/custom.js', 'text/javascript; charset=utf-8', (s) => (customJsOn(s) ? s.customJS : null));

  // NodeBB's brand uploads (POST multipart, field files[]): logo, favicon, touch icon, og:image.
  void app.register(async (up) => {
    await up.register(multipart, { throwFileSizeLimit: true, limits: { files: 1, fields: 5, fieldSize: 4096, headerPairs: 100 } });
    for (const route of Object.keys(BRAND_UPLOADS) as BrandRoute[]) {
      up.post(`/api/admin/${route}`, {
        schema: { body: BrandFiles, consumes: ['multipart/form-data'], response: { 200: Envelope(Type.Object({ url: Type.String() })) }, tags: ['admin'] },
        handler: async (req) => ok({ url: await uploadBrandImage(ctx, req.viewer, route, await readOne(ctx, req), req.ip) }),
      });
    }
  });
}
