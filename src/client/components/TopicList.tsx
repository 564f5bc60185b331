import type { TopicSummary } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { serverCachedOf } from '../app/fragments';
import { categoryPath, topicPath, userPath } from '../util/urls';
import { topicTitleText } from '../navigation/title';
import { Avatar } from './Avatar';
import { CategoryBadge } from './CategoryIcon';
import { Icon } from './Icon';
import { Timeago } from './Timeago';
import { TopicBulkBar } from './topic-tools/TopicBulkBar';
import { useState } from 'react';

function Stat({ value, label }: { value: number; label: string }) {
  return (
    <div className="topic-stat text-center">
      <div className="fw-semibold">{humanReadableNumber(value)}</div>
      <div className="small text-body-secondary">{label}</div>
    </div>
  );
}

interface TopicRowProps {
  topic: TopicSummary;
  showCategory: boolean;
  select?: { checked: boolean; onChange: (on: boolean) => void };
}

function rowProps(topic: TopicSummary) {
  return { className: `list-group-item topic-row d-flex gap-3 align-items-start py-3${topic.unread ? ' unread' : ''}${topic.deleted ? ' deleted' : ''}`, 'data-tid': topic.tid };
}

/** A topic's row; the server render writes it from the fragment cache (app/fragments.ts) when it can. */
function TopicRow(props: TopicRowProps) {
  const rt = useRuntime();
  if (props.select) return <TopicRowView {...props} />;
  // A list from the server's list cache shows shared, frozen summaries (topics/presenter.ts
  // overlayTopics): the row's key is then made once per summary, not per reader.
  return serverCachedOf(rt, 'li', rowProps(props.topic), `topic-row|${props.showCategory}|`, props.topic, <TopicRowView {...props} />);
}

function TopicRowView({ topic, showCategory, select }: TopicRowProps) {
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  const replies = Math.max(topic.postcount - 1, 0);
  const teaser = topic.teaser;
  // The topic's first thumbnail (NodeBB's thumbs[0]), when it has one.
  const thumb = topic.thumbs?.[0];
  return (
    <li {...rowProps(topic)}>
      {select && (
        <input type="checkbox" className="form-check-input mt-2 flex-shrink-0 topic-select" checked={select.checked} onChange={(e) => select.onChange(e.target.checked)} aria-label={t('topic:tools.select-topic', topic.title)} />
      )}
      <a href={`${rp}${userPath(topic.user.userslug)}`} className="flex-shrink-0" aria-label={topic.user.displayname} tabIndex={-1}>
        <Avatar user={topic.user} size="md" />
      </a>
      <div className="flex-grow-1 min-w-0">
        <h2 className="h6 mb-1 topic-title">
          {!!topic.pinned && <span className="badge text-bg-warning me-1"><Icon name="pin" size={12} className="me-1" />{t('topic:pinned')}</span>}
          {!!topic.locked && <span className="badge text-bg-secondary me-1"><Icon name="lock" size={12} className="me-1" />{t('topic:locked')}</span>}
          {!!topic.deleted && <span className="badge text-bg-danger me-1">{t('topic:deleted')}</span>}
          <a href={`${rp}${topicPath(topic.tid, topic.slug)}`} className="text-reset text-decoration-none stretched-title" dir="auto">
            {topicTitleText(topic)}
          </a>
        </h2>
        <div className="small text-body-secondary d-flex flex-wrap gap-2 align-items-center">
          {showCategory && topic.category && (
            <a href={`${rp}${categoryPath(topic.cid, topic.category.slug)}`} className="text-decoration-none">
              <CategoryBadge category={topic.category} />
            </a>
          )}
          <span>
            <a href={`${rp}${userPath(topic.user.userslug)}`} className="text-reset fw-semibold" dir="auto">{topic.user.displayname}</a>{' '}
            · <Timeago iso={topic.timestampISO} ts={topic.timestamp} />
          </span>
          {topic.tags?.map((tag) => (
            <a key={tag.value} href={`${rp}/tags/${encodeURIComponent(tag.value)}`} className="badge text-bg-light border text-decoration-none">
              {tag.value}
            </a>
          ))}
        </div>
      </div>
      {thumb && (
        <a href={`${rp}${topicPath(topic.tid, topic.slug)}`} className="flex-shrink-0 topic-thumb" tabIndex={-1} aria-hidden="true">
          <img src={thumb.url} alt="" width={64} height={64} loading="lazy" className="rounded border object-fit-cover" />
        </a>
      )}
      <div className="d-none d-md-flex gap-3 flex-shrink-0">
        <Stat value={topic.votes} label={t('global:votes')} />
        <Stat value={replies} label={t('global:replies')} />
        <Stat value={topic.viewcount} label={t('global:views')} />
      </div>
      <div className="d-none d-lg-block flex-shrink-0 topic-teaser small">
        {teaser ? (
          <a href={`${rp}${topicPath(topic.tid, topic.slug, teaser.index + 1)}`} className="d-flex gap-2 align-items-center text-reset text-decoration-none">
            <Avatar user={teaser.user} size="xs" />
            <span className="text-truncate">
              <span className="d-block text-truncate" dir="auto">{teaser.user.displayname}</span>
              <span className="text-body-secondary"><Timeago iso={teaser.timestampISO} ts={teaser.timestamp} /></span>
            </span>
          </a>
        ) : (
          <span className="text-body-secondary">{t('global:no-replies')}</span>
        )}
      </div>
    </li>
  );
}

/**
 * A list of topics with author, thumbnail, stats and latest reply; with `tools` (moderators)
 * or `readTools` (members: mark read or unread), a selection mode and bulk actions.
 */
export function TopicList({ topics, showCategory = true, tools = false, readTools = false }: { topics: TopicSummary[]; showCategory?: boolean; tools?: boolean; readTools?: boolean }) {
  const { t } = useT();
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  if (!topics?.length) {
    return <div className="card card-body text-center text-body-secondary py-5">{t('category:no-topics')}</div>;
  }
  const done = () => {
    setSelecting(false);
    setSelected([]);
  };
  return (
    <>
      {(tools || readTools) && (
        <div className="d-flex justify-content-end mb-2">
          <button type="button" className="btn btn-sm btn-light border" aria-pressed={selecting} onClick={() => (selecting ? done() : setSelecting(true))} data-testid="select-topics">
            {t(selecting ? 'topic:tools.cancel' : 'topic:tools.select-topics')}
          </button>
        </div>
      )}
      {selecting && <TopicBulkBar tids={selected} onDone={done} moderate={tools} read={readTools} />}
      <div className="card topic-list-card">
        <ul className="list-group list-group-flush topic-list">
          {topics.map((topic) => (
            <TopicRow
              key={topic.tid}
              topic={topic}
              showCategory={showCategory}
              select={selecting ? { checked: selected.includes(topic.tid), onChange: (on) => setSelected((list) => (on ? [...list, topic.tid] : list.filter((x) => x !== topic.tid))) } : undefined}
            />
          ))}
        </ul>
      </div>
    </>
  );
}
