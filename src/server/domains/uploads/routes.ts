import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ThumbSchema, UploadedSchema, UploadSchema } from '../../../shared/schemas/upload.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { Id, Int, Str } from '../../http/input.js';
import { MAX_FILES, type IncomingFile, type ThumbView } from './service.js';
import { STORED_NAME } from './storage.js';
import { assertUploadsAdmin, deleteUploadedFile } from './admin-uploads.js';
import { SlugParams } from '../groups/schemas.js';

/** Content types by stored extension (the extension was set from the sniffed bytes). */
const SERVED_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
};
const INLINE = new Set(['png', 'jpg', 'gif', 'webp', 'svg']);
/** Images a signed URL may serve (an SVG keeps the forum's sandbox headers). */
const RASTER = new Set(['png', 'jpg', 'gif', 'webp']);
/** How long a signed URL of an upload stays valid (an hour; browsers keep the redirect a little less). */
export const SIGNED_URL_SECONDS = 3600;
/**
 * An uploaded file can run nothing: no script, no plugin, no form, in a sandbox without the
 * forum's origin. Styles inside an SVG are allowed (inline only); nothing is fetched.
 */
export const UPLOAD_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const TidParams = Type.Object({ tid: Id() });
const PathBody = Type.Object({ path: Str({ minLength: 1, maxLength: 300 }) });
const PathQuery = Type.Object({ path: Type.Optional(Str({ minLength: 1, maxLength: 300 })) });
const OrderBody = Type.Object({ path: Str({ minLength: 1, maxLength: 300 }), order: Int({ minimum: 0, maximum: 1000 }) });
const ThumbsQuery = Type.Object({ thumbsOnly: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 5 })])) });
const ListQuery = Type.Object({ uid: Type.Optional(Id()), page: Type.Optional(Int({ minimum: 1, maximum: 100000 })) });
const PER_PAGE = 20;
// Multipart bodies are read as a stream (readFiles), never parsed into `body`: the schema documents the form.
const FilesBody = Type.Optional(Type.Object({ files: Type.Optional(Type.Array(Type.String({ format: 'binary' }))) }));

/** Reads the request's files within the size limit; a larger file is a 413, a request without one a 400. */
async function readFiles(ctx: AppContext, req: FastifyRequest): Promise<IncomingFile[]> {
  if (!req.isMultipart()) throw badRequest('error:no-upload');
  const { maximumFileSize } = await ctx.uploads.limits();
  const out: IncomingFile[] = [];
  try {
    for await (const part of req.files({ limits: { fileSize: maximumFileSize * 1024, files: MAX_FILES, fields: 20, parts: MAX_FILES + 20 } })) {
      const bytes = await part.toBuffer();
      if (bytes.length) out.push({ name: part.filename, bytes });
    }
  } catch (err) {
    // The rest of the body is read and dropped, so the client gets the answer rather than a reset.
    req.raw.resume();
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw ctx.uploads.tooBig(maximumFileSize);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw badRequest('error:too-many-files', MAX_FILES);
    throw badRequest('error:no-upload');
  }
  return out;
}

/**
 * Uploads: NodeBB's `POST /api/post/upload` (the composer's), topic thumbnails
 * (`/api/v3/topics/{tid}/thumbs`), a member's uploads (`/api/v3/uploads`), and the files
 * themselves under `/assets/uploads/…` with headers that keep them inert.
 */
export function registerUploadRoutes(scope: FastifyInstance, ctx: AppContext): void {
  // Multipart bodies are parsed only on the upload routes.
  void scope.register(async (up) => {
    await up.register(multipart, { throwFileSizeLimit: true, limits: { files: MAX_FILES, fields: 20, fieldSize: 4096, headerPairs: 100 } });
    const app = up.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/api/post/upload', {
      schema: { body: FilesBody, consumes: ['multipart/form-data'], response: { 200: Envelope(UploadedSchema) }, tags: ['posts'] },
      handler: async (req) => {
        await ctx.uploads.assertMayUpload(req.viewer);
        const rows = await ctx.uploads.upload(req.viewer, await readFiles(ctx, req));
        return ok({ images: rows.map((r) => ({ url: ctx.uploads.storage.url(r.path), name: r.name })) });
      },
    });

    // NodeBB's admin upload (admin/manage/uploads): any file type the forum accepts, by an administrator.
    app.post('/api/admin/upload/file', {
      schema: { body: FilesBody, consumes: ['multipart/form-data'], response: { 200: Envelope(UploadedSchema) }, tags: ['admin'] },
      handler: async (req) => {
        assertUploadsAdmin(req.viewer);
        const rows = await ctx.uploads.upload(req.viewer, await readFiles(ctx, req));
        return ok({ images: rows.map((r) => ({ url: ctx.uploads.storage.url(r.path), name: r.name })) });
      },
    });

    app.post('/api/v3/topics/:tid/thumbs', {
      schema: { params: TidParams, body: FilesBody, consumes: ['multipart/form-data'], response: { 200: Envelope(UploadedSchema) }, tags: ['topics'] },
      handler: async (req) => {
        await ctx.uploads.assertMayUpload(req.viewer);
        const rows = await ctx.uploads.uploadThumbs(req.viewer, req.params.tid, await readFiles(ctx, req));
        return ok({ images: rows.map((r) => ({ url: ctx.uploads.storage.url(r.path), name: r.name })) });
      },
    });

    // Palaver's addition (NodeBB's write API only sets a picture by URL): one image becomes the member's picture.
    app.post('/api/v3/users/:uid/picture', {
      schema: { params: Type.Object({ uid: Id() }), body: FilesBody, consumes: ['multipart/form-data'], response: { 200: Envelope(UploadedSchema) }, tags: ['users'] },
      handler: async (req) => {
        if (req.viewer.uid > 0 && req.viewer.uid !== req.params.uid && !req.viewer.isAdmin) throw forbidden();
        const row = await ctx.uploads.uploadPicture(req.viewer, req.params.uid, await readFiles(ctx, req));
        return ok({ images: [{ url: ctx.uploads.storage.url(row.path), name: row.name }] });
      },
    });

    // Palaver's addition (NodeBB uploads covers over its socket): one image becomes the member's cover photo.
    app.post('/api/v3/users/:uid/cover', {
      schema: { params: Type.Object({ uid: Id() }), body: FilesBody, consumes: ['multipart/form-data'], response: { 200: Envelope(UploadedSchema) }, tags: ['users'] },
      handler: async (req) => {
        if (req.viewer.uid > 0 && req.viewer.uid !== req.params.uid && !req.viewer.isAdmin) throw forbidden();
        const row = await ctx.uploads.uploadCover(req.viewer, req.params.uid, await readFiles(ctx, req));
        return ok({ images: [{ url: ctx.uploads.storage.url(row.path), name: row.name }] });
      },
    });

    // Palaver's addition (NodeBB uploads group covers over its socket): one image becomes a group's cover photo.
    app.post('/api/v3/groups/:slug/cover', {
      schema: { params: SlugParams, body: FilesBody, consumes: ['multipart/form-data'], response: { 200: Envelope(UploadedSchema) }, tags: ['groups'] },
      handler: async (req) => {
        // Owners and admins only, refused before the body is read.
        await ctx.groups.manageable(req.viewer, req.params.slug);
        const row = await ctx.uploads.uploadGroupCover(req.viewer, req.params.slug, await readFiles(ctx, req));
        return ok({ images: [{ url: ctx.uploads.storage.url(row.path), name: row.name }] });
      },
    });
  });

  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  // NodeBB's thumbs routes name each thumbnail's topic as a string id (the topic objects' thumbs keep the number).
  const asRoute = (list: ThumbView[]) => list.map((t) => ({ ...t, id: String(t.id) }));

  app.get('/api/v3/topics/:tid/thumbs', {
    schema: { params: TidParams, querystring: ThumbsQuery, response: { 200: Envelope(Type.Array(ThumbSchema)) }, tags: ['topics'] },
    handler: async (req) => ok(asRoute(await ctx.uploads.thumbs(req.viewer, req.params.tid, req.query.thumbsOnly === true || req.query.thumbsOnly === '1' || req.query.thumbsOnly === 'true'))),
  });

  // Palaver's addition: make an image already uploaded (by its path) a thumbnail.
  app.put('/api/v3/topics/:tid/thumbs', {
    schema: { params: TidParams, body: PathBody, response: { 200: Envelope(Type.Array(ThumbSchema)) }, tags: ['topics'] },
    handler: async (req) => ok(asRoute(await ctx.uploads.chooseThumb(req.viewer, req.params.tid, req.body.path))),
  });

  app.put('/api/v3/topics/:tid/thumbs/order', {
    schema: { params: TidParams, body: OrderBody, response: { 200: Envelope(Type.Array(ThumbSchema)) }, tags: ['topics'] },
    handler: async (req) => ok(asRoute(await ctx.uploads.orderThumb(req.viewer, req.params.tid, req.body.path, req.body.order))),
  });

  app.delete('/api/v3/topics/:tid/thumbs', {
    schema: { params: TidParams, querystring: PathQuery, body: Type.Optional(Type.Object({ path: Type.Optional(Str({ minLength: 1, maxLength: 300 })) })), response: { 200: Envelope(Type.Array(ThumbSchema)) }, tags: ['topics'] },
    handler: async (req) => {
      const p = req.body?.path ?? req.query.path;
      if (!p) throw badRequest('error:invalid-data', 'body/path');
      return ok(asRoute(await ctx.uploads.removeThumb(req.viewer, req.params.tid, p)));
    },
  });

  // NodeBB's admin file manager: deleting a file by its path. Palaver stores files by content
  // hash, without folders: a new folder is refused with its own key.
  app.delete('/api/v3/files', {
    schema: { body: PathBody, response: { 200: Envelope(Empty) }, tags: ['files'] },
    handler: async (req) => {
      await deleteUploadedFile(ctx, ctx.uploads, req.viewer, req.body.path);
      return ok({});
    },
  });
  app.put('/api/v3/files/folder', {
    schema: { body: Type.Object({ path: Str({ maxLength: 300 }), folderName: Str({ maxLength: 300 }) }), response: { 200: Envelope(Empty) }, tags: ['files'] },
    handler: async (req) => {
      assertUploadsAdmin(req.viewer);
      throw badRequest('error:upload-folders-unsupported');
    },
  });

  app.get('/api/v3/uploads', {
    schema: { querystring: ListQuery, response: { 200: Envelope(Type.Object({ uploads: Type.Array(UploadSchema), count: Type.Number() })) }, tags: ['uploads'] },
    handler: async (req) => ok(await ctx.uploads.list(req.viewer, req.query.uid ?? req.viewer.uid, req.query.page ?? 1, PER_PAGE)),
  });

  app.delete('/api/v3/uploads/:id', {
    schema: { params: Type.Object({ id: Id() }), body: Type.Optional(Type.Object({})), response: { 200: Envelope(Empty) }, tags: ['uploads'] },
    handler: async (req) => {
      await ctx.uploads.remove(req.viewer, req.params.id);
      return ok({});
    },
  });

  // The files. No session is looked up (the name is an unguessable hash, as NodeBB's public uploads).
  app.get('/assets/uploads/*', {
    config: { skipAuth: true },
    schema: { hide: true },
    handler: async (req, reply) => {
      const name = (req.params as { '*': string })['*'];
      if (!STORED_NAME.test(name)) return notFoundFile(reply);
      const ext = name.slice(name.lastIndexOf('.') + 1);
      // An image may be fetched straight from the object store when the admin chose it: the
      // link expires, and other types keep the forum's headers (below) that keep them inert.
      if (RASTER.has(ext) && ctx.storage.kind === 's3' && (await ctx.settings.get()).uploadsSignedUrls) {
        const url = await ctx.uploads.storage.signedUrl(name, { expiresIn: SIGNED_URL_SECONDS, contentType: SERVED_TYPES[ext] });
        if (url && (await ctx.uploads.storage.has(name))) {
          return reply.code(302).header('location', url).header('cache-control', `private, max-age=${SIGNED_URL_SECONDS - 300}`).send();
        }
      }
      const file = await ctx.uploads.storage.open(name);
      if (!file) return notFoundFile(reply);
      reply
        .type(SERVED_TYPES[ext] ?? 'application/octet-stream')
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', UPLOAD_CSP)
        .header('cross-origin-resource-policy', 'same-site')
        .header('cache-control', 'public, max-age=31536000, immutable');
      if (!INLINE.has(ext)) reply.header('content-disposition', 'attachment');
      return reply.send(file.stream);
    },
  });
}

function notFoundFile(reply: FastifyReply) {
  return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not found');
}
