import { useEffect, useState } from 'react';
import type { NotificationsPage } from '../../shared/schemas/notification';
import type { PageBase } from '../../shared/types';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { PageHeader } from '../components/PageHeader';
import { Pagination } from '../components/Pagination';
import { markAllRead, markOneRead } from '../components/notifications/actions';
import { NotificationRow } from '../components/notifications/NotificationItem';
import { liveItem, markRead, mergeLive, showsLive, type NotificationItem } from '../state/notifications';
import { useStore } from '../state/store';

/** The notifications page: filters by type, the list, mark one or all read, pagination. */
export default function Notifications({ page }: { page: PageBase }) {
  const { t, tx } = useT();
  const rt = useRuntime();
  const data = page as NotificationsPage;
  const { seq } = useStore(rt.page);
  const [list, setList] = useState<NotificationItem[]>(data.notifications ?? []);
  // A new page (another filter or page number) replaces the list.
  useEffect(() => setList(data.notifications ?? []), [seq, data.notifications]);
  useEffect(
    () =>
      rt.live.on('event:new_notification', (payload) => {
        const item = liveItem(payload);
        if (item && showsLive(data, item)) setList((l) => mergeLive(l, item));
      }),
    [rt, data],
  );
  const readOne = (item: NotificationItem) => {
    setList((l) => markRead(l, item.nid));
    void markOneRead(rt, item);
  };
  const readAll = async () => {
    if (await markAllRead(rt)) setList((l) => markRead(l));
  };
  const rp = page.relative_path;
  const filters = data.filters ?? [];
  const selected = data.selectedFilter?.filter ?? '';
  return (
    <>
      <PageHeader title={t('notifications:title')}>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void readAll()} disabled={!list.some((n) => !n.read)} data-testid="mark-all-read">
          {t('notifications:mark-all-read')}
        </button>
      </PageHeader>
      {filters.length > 0 && (
        <ul className="nav nav-pills mb-3 gap-1 flex-nowrap overflow-auto" aria-label={t('notifications:title')}>
          {filters.map((f) => {
            const active = f.filter === selected;
            return (
              <li className="nav-item" key={f.filter}>
                <a href={`${rp}/notifications${f.filter ? `?filter=${encodeURIComponent(f.filter)}` : ''}`} className={`nav-link py-1 px-3 text-nowrap${active ? ' active' : ''}`} aria-current={active ? 'page' : undefined}>
                  {tx(f.name)}
                  {f.count ? <span className="badge rounded-pill text-bg-secondary ms-1">{f.count}</span> : null}
                </a>
              </li>
            );
          })}
        </ul>
      )}
      {list.length ? (
        <div className="card notifications-list" data-testid="notifications-list">
          <div className="list-group list-group-flush">
            {list.map((n) => (
              <div className="list-group-item p-0" key={n.nid}>
                <NotificationRow item={n} onRead={readOne} />
              </div>
            ))}
          </div>
        </div>
      ) : (
        <div className="card card-body text-center text-body-secondary py-5" data-testid="notifications-empty">{t('notifications:no-notifications')}</div>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
