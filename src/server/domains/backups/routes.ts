import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AdminBackupsPage } from '../../../shared/schemas/admin-backups.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { AppError, badRequest } from '../../http/errors.js';
import { Str } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { assertAdmin } from '../privileges/service.js';
import { BackupsService } from './service.js';

const services = new WeakMap<AppContext, BackupsService>();

/** The backups service of an application (made once; it defines the backup jobs). */
export function backupsOf(ctx: AppContext): BackupsService {
  let s = services.get(ctx);
  if (!s) services.set(ctx, (s = new BackupsService(ctx)));
  return s;
}

/** The largest archive the admin page accepts as an upload. */
export const MAX_UPLOAD_BYTES = 64 * 1024 ** 3;

const Status = Type.Object({
  op: Type.Union([Type.Literal('backup'), Type.Literal('restore'), Type.Null()]),
  state: Type.String(),
  name: Type.String(),
  started: Type.Number(),
  finished: Type.Number(),
  phase: Type.String(),
  table: Type.String(),
  done: Type.Number(),
  total: Type.Number(),
  bytes: Type.Number(),
  error: Type.Union([Type.Object({ key: Type.String(), params: Type.Array(Type.Union([Type.String(), Type.Number()])) }), Type.Null()]),
});
const Entry = Type.Object({ name: Type.String(), size: Type.Number(), sizeHumanReadable: Type.String(), mtime: Type.Number(), kind: Type.String() });
const NameParams = Type.Object({ name: Str({ minLength: 1, maxLength: 200 }) });

/**
 * The admin page's API (`/api/v3/admin/backups…`, administrators only): the list with the
 * current progress, make one, upload one (multipart), download, delete, restore (the body
 * names the forum's title, typed as confirmation).
 */
export function registerBackupRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const service = backupsOf(ctx);
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/api/v3/admin/backups', {
    schema: { response: { 200: Envelope(Type.Object({ backups: Type.Array(Entry), status: Status })) }, tags: ['admin'] },
    handler: async (req) => {
      assertAdmin(req.viewer);
      const [backups, status] = await Promise.all([service.list(), service.progress()]);
      return ok({ backups, status });
    },
  });

  r.post('/api/v3/admin/backups', {
    schema: { body: Type.Optional(Type.Object({})), response: { 202: Envelope(Status) }, tags: ['admin'] },
    handler: async (req, reply) => {
      assertAdmin(req.viewer);
      return reply.code(202).send(ok(await service.request(req.viewer, req.ip)));
    },
  });

  r.get('/api/v3/admin/backups/:name', {
    // The archive itself, streamed.
    schema: {
      params: NameParams,
      response: { 200: Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', description: 'the archive (tar.gz)' }) },
      tags: ['admin'],
    },
    exposeHeadRoute: false,
    handler: async (req, reply) => {
      assertAdmin(req.viewer);
      const file = await service.open(req.params.name);
      return reply
        .type('application/gzip')
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="${req.params.name}"`)
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  });

  r.delete('/api/v3/admin/backups/:name', {
    schema: { params: NameParams, body: Type.Optional(Type.Object({})), response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      assertAdmin(req.viewer);
      await service.remove(req.viewer, req.params.name, req.ip);
      return ok({});
    },
  });

  r.post('/api/v3/admin/backups/:name/restore', {
    schema: { params: NameParams, body: Type.Object({ confirm: Str({ maxLength: 300 }) }), response: { 202: Envelope(Status) }, tags: ['admin'] },
    handler: async (req, reply) => {
      assertAdmin(req.viewer);
      return reply.code(202).send(ok(await service.requestRestore(req.viewer, req.params.name, req.body.confirm, req.ip)));
    },
  });

  // The archive as a form's file: streamed into the store (a backup is larger than any upload limit).
  void scope.register(async (up) => {
    await up.register(multipart, { limits: { files: 1, fields: 5, fileSize: MAX_UPLOAD_BYTES } });
    up.withTypeProvider<TypeBoxTypeProvider>().post('/api/v3/admin/backups/upload', {
      schema: {
        body: Type.Optional(Type.Object({ file: Type.Optional(Type.String({ format: 'binary' })) })),
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(Entry) },
        tags: ['admin'],
      },
      handler: async (req) => {
        assertAdmin(req.viewer);
        if (!req.isMultipart()) throw badRequest('error:no-upload');
        const part = await req.file();
        if (!part) throw badRequest('error:no-upload');
        if (!/\.(tar\.gz|tgz)$/i.test(part.filename)) {
          part.file.resume();
          throw badRequest('error:backup-foreign');
        }
        const entry = await service.upload(req.viewer, part.file, req.ip);
        if (part.file.truncated) {
          await service.remove(req.viewer, entry.name, req.ip);
          throw new AppError('error:file-too-big', 413, [MAX_UPLOAD_BYTES / 1024]);
        }
        return ok(entry);
      },
    });
  });
}

const backupsPage = definePage<AdminBackupsPage>({
  path: '/admin/advanced/backups',
  template: 'admin/advanced/backups',
  access: 'admin',
  async load({ ctx, viewer }) {
    assertAdmin(viewer);
    const service = backupsOf(ctx);
    const [backups, status, settings] = await Promise.all([service.list(), service.progress(), ctx.settings.get()]);
    return {
      title: '[[admin-advanced:backups.title]]',
      backups,
      status,
      storage: { kind: ctx.storage.kind, where: ctx.storage.describe(), database: ctx.dialect },
      schedule: { backupSchedule: settings.backupSchedule, backupKeep: settings.backupKeep },
      siteTitle: settings.siteTitle,
    };
  },
});

/** The backups admin page. */
export const backupPages = [backupsPage];
