import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AccountDataPage } from '../../../shared/schemas/account-data.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { Id } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { presentUser } from '../users/presenter.js';
import { ExportsService, isExportType } from './service.js';

const services = new WeakMap<AppContext, ExportsService>();

/** The exports service of an application (made once; it defines the export jobs). */
export function exportsOf(ctx: AppContext): ExportsService {
  let s = services.get(ctx);
  if (!s) services.set(ctx, (s = new ExportsService(ctx)));
  return s;
}

const Params = Type.Object({ uid: Id(), type: Type.String({ maxLength: 20 }) });

function exportType(type: string) {
  if (!isExportType(type)) throw badRequest('error:invalid-data');
  return type;
}

/** NodeBB's /api/v3/users/:uid/exports/:type: POST queues (202), HEAD says whether a file is ready (204/404), GET downloads it. */
export function registerExportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = exportsOf(ctx);
  r.post('/api/v3/users/:uid/exports/:type', {
    schema: { params: Params, body: NoBody, response: { 202: Envelope(Empty) }, tags: ['users'] },
    preValidation: defaultBody,
    handler: async (req, reply) => {
      await service.request(req.viewer, req.params.uid, exportType(req.params.type));
      return reply.code(202).send(ok({}));
    },
  });
  r.head('/api/v3/users/:uid/exports/:type', {
    schema: { params: Params, tags: ['users'] },
    handler: async (req, reply) => {
      const f = await service.download(req.viewer, req.params.uid, exportType(req.params.type));
      return reply
        .code(204)
        .header('last-modified', new Date(f.mtime).toUTCString())
        .header('etag', `"${Math.floor(f.mtime).toString(36)}-${f.size.toString(36)}"`)
        .send();
    },
  });
  r.get('/api/v3/users/:uid/exports/:type', {
    // The file itself (JSON, CSV or ZIP), streamed: nothing to serialise.
    schema: { params: Params, response: { 200: Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', description: 'the export file' }) }, tags: ['users'] },
    exposeHeadRoute: false,
    handler: async (req, reply) => {
      const f = await service.download(req.viewer, req.params.uid, exportType(req.params.type), true);
      return reply
        .type(f.mime)
        .header('content-length', f.size)
        .header('content-disposition', `attachment; filename="${f.name.replace(/[^\w.-]/g, '_')}"`)
        .header('last-modified', new Date(f.mtime).toUTCString())
        .header('cache-control', 'private, no-store')
        .send(f.stream!);
    },
  });
}

const dataPage = definePage<AccountDataPage>({
  path: '/user/:userslug/data',
  template: 'account/data',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row) throw notFound('error:no-user');
    if (row.uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/data` };
    const self = row.uid === viewer.uid;
    return {
      ...presentUser(row),
      title: `[[pages:account/data, ${row.username}]]`,
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: '[[user:data.title]]' }],
      isSelf: self,
      exports: await exportsOf(ctx).states(row.uid),
      exportExpiryDays: (await ctx.settings.get()).exportExpiryDays,
      canDelete: self ? (await ctx.settings.get()).allowAccountDelete || viewer.isAdmin : viewer.isAdmin,
      needsPassword: self && !!row.password_hash,
      isTargetAdmin: await ctx.groups.isAdmin(row.uid),
    };
  },
});

/** The member's data page: exports and account deletion. */
export const exportPages = [dataPage];
