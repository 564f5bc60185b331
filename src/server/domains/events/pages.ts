import type { AdminEventsPage } from '../../../shared/schemas/event.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { presentUser } from '../users/presenter.js';
import { EVENT_TYPES, type EventFilter } from './service.js';

const DAY_MS = 24 * 3600_000;

/** A 'YYYY-MM-DD' date (UTC midnight) or a millisecond timestamp from the query; undefined when absent, 400 when neither. */
function dateFilter(raw: string | undefined, field: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const t = Date.parse(`${raw}T00:00:00Z`);
    if (Number.isFinite(t)) return t;
  } else if (/^\d{1,15}$/.test(raw)) return Number(raw);
  throw badRequest('error:invalid-data', `querystring/${field}`);
}

const eventsPage = definePage<AdminEventsPage>({
  path: '/admin/advanced/events',
  template: 'admin/advanced/events',
  access: 'admin',
  async load({ ctx, viewer, query }) {
    // The audit log is the administrators' alone (NodeBB's admin area).
    if (!viewer.isAdmin) throw forbidden();
    const page = pageNumber(query.page);
    const perPage = query.perPage ? Number(query.perPage) : 20;
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 200) throw badRequest('error:invalid-data', 'querystring/perPage');
    const filter: EventFilter = {};
    if (query.type) filter.type = query.type.slice(0, 100);
    if (query.uid) {
      const uid = pathId(query.uid);
      if (uid === null) throw badRequest('error:invalid-data', 'querystring/uid');
      filter.uid = uid;
    } else if (query.username) {
      // An unknown name matches no event (uid -1 is nobody's).
      filter.uid = (await ctx.users.byUsername(query.username))?.uid ?? -1;
    }
    if (query.target) {
      if (!/^[a-z]+:\d{1,10}$/.test(query.target)) throw badRequest('error:invalid-data', 'querystring/target');
      filter.target = query.target;
    }
    filter.start = dateFilter(query.start, 'start');
    const end = dateFilter(query.end, 'end');
    // A day given as the end includes that whole day.
    if (end !== undefined) filter.end = query.end && query.end.includes('-') ? end + DAY_MS : end;
    for (const k of Object.keys(filter) as (keyof EventFilter)[]) if (filter[k] === undefined) delete filter[k];
    const [{ rows, count }, counts] = await Promise.all([ctx.events.list(filter, (page - 1) * perPage, perPage), ctx.events.typeCounts()]);
    const users = await ctx.users.getMany([...new Set(rows.map((r) => r.uid).filter((u) => u > 0))]);
    const names = [...new Set([...EVENT_TYPES, ...counts.keys()])].sort();
    const pageCount = Math.max(1, Math.ceil(count / perPage));
    return {
      title: '[[pages:admin/events]]',
      events: rows.map((r) => {
        const u = presentUser(users.get(r.uid), r.uid);
        return {
          ...r.data,
          eid: r.id,
          type: r.type,
          uid: r.uid,
          ip: r.ip,
          target: r.target,
          timestamp: r.created,
          timestampISO: new Date(r.created).toISOString(),
          user: { uid: u.uid, username: u.username, userslug: u.userslug, picture: u.picture, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] },
          jsonString: JSON.stringify(r.data, null, 4),
        };
      }),
      types: names.map((value) => ({ value, name: value, selected: value === filter.type, count: counts.get(value) ?? 0 })),
      query: Object.fromEntries(Object.entries(query).filter(([k]) => k !== '_')),
      pagination: pagination(page, pageCount, query),
    };
  },
});

/** The admin area's audit log page data (GET /api/admin/advanced/events); its page comes with the admin area. */
export const eventPages = [eventsPage];
