import type { TopicEventView } from '../../../shared/types';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { userPath } from '../../util/urls';
import { Icon } from '../Icon';
import { Timeago } from '../Timeago';
import { reloadPage, runWrites } from './common';

// NodeBB's icon names → ours.
const ICONS: Record<string, string> = {
  'fa-thumb-tack': 'pin',
  'fa-lock': 'lock',
  'fa-unlock': 'lock',
  'fa-trash': 'trash',
  'fa-trash-o': 'restore',
  'fa-arrow-circle-right': 'chevron-right',
  'fa-arrow-circle-left': 'chevron-left',
  'fa-code-fork': 'comments',
  'fa-user': 'user',
  'fa-tag': 'tag',
  'fa-pencil': 'edit',
};

/** One event of the topic's timeline between its posts: "admin locked this topic 2 hours ago". */
export function EventRow({ event, tid, onDeleted }: { event: TopicEventView; tid: number; onDeleted: (id: number) => void }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const user = useUser();
  const rp = rt.config.relative_path;
  const canDelete = !!user && (user.isAdmin || user.isGlobalMod);
  const remove = async () => {
    if (await runWrites(rt, [['DELETE', `/topics/${tid}/events/${event.id}`]])) onDeleted(event.id);
  };
  const undo = async () => {
    if (event.undo && (await runWrites(rt, [[event.undo.method, event.undo.path, event.undo.body]]))) reloadPage(rt);
  };
  return (
    <div className="topic-event d-flex align-items-center gap-2 small text-body-secondary py-2 px-3 mb-3" data-type={event.type} data-event-id={event.id}>
      <span className="topic-event-icon rounded-circle border d-inline-flex align-items-center justify-content-center flex-shrink-0">
        <Icon name={ICONS[event.icon.split(' ')[0]!] ?? 'clock'} size={14} />
      </span>
      <span className="flex-grow-1 min-w-0">
        {event.uid > 0 && event.user.userslug ? (
          <a href={`${rp}${userPath(event.user.userslug)}`} className="fw-semibold text-reset" dir="auto">{tx(event.user.displayname)}</a>
        ) : (
          <span className="fw-semibold">{event.uid > 0 ? tx(event.user.displayname) : t('topic:event.system')}</span>
        )}{' '}
        {tx(event.text)}
        {event.href && (
          <>
            {' '}
            <a href={`${rp}${event.href}`}>{event.hrefText}</a>
          </>
        )}{' '}
        <Timeago iso={event.timestampISO} ts={event.timestamp} />
      </span>
      {event.undo && (
        <button type="button" className="btn btn-sm btn-link p-0" onClick={() => void undo()}>
          {t('topic:event.undo')}
        </button>
      )}
      {canDelete && (
        <button type="button" className="btn btn-sm btn-link text-body-secondary p-0" onClick={() => void remove()} aria-label={t('topic:event.delete-label')} title={t('topic:event.delete-label')}>
          <Icon name="x" size={14} />
        </button>
      )}
    </div>
  );
}
