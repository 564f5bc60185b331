import { useEffect, useId, useState, type FormEvent } from 'react';
import type { PageBase, SearchPage, SearchResultPost } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { Avatar } from '../components/Avatar';
import { CategoryBadge, CategoryIcon } from '../components/CategoryIcon';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { Pagination } from '../components/Pagination';
import { Timeago } from '../components/Timeago';
import { categoryPath, userPath } from '../util/urls';

/** The form's state: every filter as the query string carries it. */
interface Form {
  term: string;
  in: string;
  matchWords: string;
  by: string;
  categories: string[];
  searchChildren: boolean;
  hasTags: string;
  replies: string;
  repliesFilter: string;
  timeFilter: string;
  timeRange: string;
  sortBy: string;
  sortDirection: string;
  showAs: string;
}

const list = (v: string | string[] | boolean | undefined) => (Array.isArray(v) ? v : typeof v === 'string' && v ? v.split(',') : []);
const str = (v: string | string[] | boolean | undefined, fallback = '') => (typeof v === 'string' ? v : fallback);

function formOf(data: SearchPage): Form {
  const f = data.filters ?? {};
  return {
    term: data.search_query ?? '',
    in: str(f.in, data.searchDefaultIn || 'titlesposts'),
    matchWords: str(f.matchWords, 'all'),
    by: list(f.by).join(', '),
    categories: list(f.categories),
    searchChildren: f.searchChildren === 'true',
    hasTags: list(f.hasTags).join(', '),
    replies: str(f.replies),
    repliesFilter: str(f.repliesFilter, 'atleast'),
    timeFilter: str(f.timeFilter, 'newer'),
    timeRange: str(f.timeRange),
    sortBy: str(f.sortBy, data.searchDefaultSortBy || 'relevance'),
    sortDirection: str(f.sortDirection, 'desc'),
    showAs: str(f.showAs, 'posts'),
  };
}

/** The query string of a search: only what differs from the defaults, so links stay short. */
export function searchQuery(f: Form, defaults: { in: string; sortBy: string }): string {
  const q = new URLSearchParams();
  q.set('term', f.term.trim());
  q.set('in', f.in);
  const content = !['users', 'tags', 'categories'].includes(f.in);
  if (content) {
    const names = f.by.split(',').map((s) => s.trim()).filter(Boolean);
    const tags = f.hasTags.split(',').map((s) => s.trim()).filter(Boolean);
    if (f.matchWords !== 'all') q.set('matchWords', f.matchWords);
    if (names.length) q.set('by', names.join(','));
    if (f.categories.length) q.set('categories', f.categories.join(','));
    if (f.categories.length && f.searchChildren) q.set('searchChildren', 'true');
    if (tags.length) q.set('hasTags', tags.join(','));
    if (f.replies !== '') {
      q.set('replies', f.replies);
      q.set('repliesFilter', f.repliesFilter);
    }
    if (f.timeRange) {
      q.set('timeRange', f.timeRange);
      q.set('timeFilter', f.timeFilter);
    }
    if (f.sortBy !== defaults.sortBy) q.set('sortBy', f.sortBy);
    if (f.sortDirection !== 'desc') q.set('sortDirection', f.sortDirection);
    if (f.showAs !== 'posts') q.set('showAs', f.showAs);
  }
  return q.toString();
}

const IN = [
  ['titlesposts', 'search:in-titles-posts'],
  ['titles', 'search:in-titles'],
  ['posts', 'search:in-posts'],
  ['categories', 'search:in-categories'],
  ['users', 'search:in-users'],
  ['tags', 'search:in-tags'],
] as const;
const TIMES = [
  ['86400', 'search:yesterday'],
  ['604800', 'search:one-week'],
  ['1209600', 'search:two-weeks'],
  ['2592000', 'search:one-month'],
  ['7776000', 'search:three-months'],
  ['15552000', 'search:six-months'],
  ['31104000', 'search:one-year'],
] as const;
const SORTS = [
  ['relevance', 'search:relevance'],
  ['timestamp', 'search:post-time-sort'],
  ['votes', 'search:votes'],
  ['topic.lastposttime', 'search:last-reply-time'],
  ['topic.title', 'search:topic-title'],
  ['topic.postcount', 'search:topic-reply-count'],
  ['topic.viewcount', 'search:topic-views'],
  ['topic.timestamp', 'search:topic-start-date'],
] as const;

/** NodeBB's search page: the form with every filter (kept in the URL), then the results. */
export default function Search({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as SearchPage;
  const [form, setForm] = useState<Form>(() => formOf(data));
  const [advanced, setAdvanced] = useState(data.expandSearch);
  const id = useId();
  // A new page (back button, a shared link) brings its own filters.
  useEffect(() => {
    setForm(formOf(data));
    setAdvanced(data.expandSearch);
  }, [data]);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.term.trim()) return;
    rt.navigate(`${page.relative_path}/search?${searchQuery(form, { in: data.searchDefaultIn, sortBy: data.searchDefaultSortBy })}`);
  };
  const content = !['users', 'tags', 'categories'].includes(form.in);
  const searched = Boolean(data.search_query);
  const shown = data.filters?.in ?? data.searchDefaultIn;
  return (
    <>
      <PageHeader title={t('global:search')} />
      <form role="search" className="card card-body mb-3 search-form" onSubmit={submit}>
        <div className="d-flex flex-column flex-sm-row gap-2">
          <label htmlFor={`${id}-term`} className="visually-hidden">{t('global:search')}</label>
          <input id={`${id}-term`} name="term" type="search" className="form-control" placeholder={t('search:type-to-search')} value={form.term} onChange={(e) => set('term', e.target.value)} autoFocus={!searched} />
          <label htmlFor={`${id}-in`} className="visually-hidden">{t('search:in')}</label>
          <select id={`${id}-in`} name="in" className="form-select w-auto" value={form.in} onChange={(e) => set('in', e.target.value)}>
            {IN.filter(([v]) => (v === 'users' || v === 'tags' ? data.privileges?.[`search:${v}`] : true)).map(([v, label]) => (
              <option key={v} value={v}>{t(label)}</option>
            ))}
          </select>
          <button type="submit" className="btn btn-primary d-flex align-items-center justify-content-center gap-1">
            <Icon name="search" size={16} /> {t('global:search')}
          </button>
        </div>
        {content && (
          <button type="button" className="btn btn-link btn-sm align-self-start px-0 mt-2" aria-expanded={advanced} aria-controls={`${id}-advanced`} onClick={() => setAdvanced(!advanced)}>
            {t('search:advanced-search')} <Icon name={advanced ? 'chevron-up' : 'chevron-down'} size={14} />
          </button>
        )}
        {content && advanced && (
          <div id={`${id}-advanced`} className="row g-3 mt-0">
            <div className="col-12 col-md-6">
              <label className="form-label small fw-semibold" htmlFor={`${id}-cats`}>{t('search:categories')}</label>
              <select id={`${id}-cats`} multiple className="form-select" size={Math.min(6, Math.max(3, data.allCategories?.length ?? 0))} value={form.categories} onChange={(e) => set('categories', [...e.target.selectedOptions].map((o) => o.value))}>
                {(data.allCategories ?? []).map((c) => (
                  <option key={c.cid} value={String(c.cid)} dir="auto">{`${'\u00a0\u00a0'.repeat(c.level)}${c.name}`}</option>
                ))}
              </select>
              <div className="form-check mt-1">
                <input id={`${id}-children`} type="checkbox" className="form-check-input" checked={form.searchChildren} onChange={(e) => set('searchChildren', e.target.checked)} />
                <label className="form-check-label small" htmlFor={`${id}-children`}>{t('search:search-child-categories')}</label>
              </div>
            </div>
            <div className="col-12 col-md-6 d-flex flex-column gap-3">
              <div>
                <label className="form-label small fw-semibold" htmlFor={`${id}-by`}>{t('search:posted-by')}</label>
                <input id={`${id}-by`} className="form-control" placeholder={t('search:posted-by-placeholder')} value={form.by} onChange={(e) => set('by', e.target.value)} />
              </div>
              <div>
                <label className="form-label small fw-semibold" htmlFor={`${id}-tags`}>{t('search:has-tags')}</label>
                <input id={`${id}-tags`} className="form-control" placeholder={t('search:tags-placeholder')} value={form.hasTags} onChange={(e) => set('hasTags', e.target.value)} />
              </div>
            </div>
            <fieldset className="col-12 col-sm-6 col-lg-3">
              <legend className="form-label small fw-semibold mb-2">{t('search:reply-count')}</legend>
              <div className="input-group">
                <select aria-label={t('search:reply-count')} className="form-select" value={form.repliesFilter} onChange={(e) => set('repliesFilter', e.target.value)}>
                  <option value="atleast">{t('search:at-least')}</option>
                  <option value="atmost">{t('search:at-most')}</option>
                </select>
                <input aria-label={t('search:replies')} type="number" min={0} className="form-control" value={form.replies} onChange={(e) => set('replies', e.target.value)} />
              </div>
            </fieldset>
            <fieldset className="col-12 col-sm-6 col-lg-3">
              <legend className="form-label small fw-semibold mb-2">{t('search:post-time')}</legend>
              <div className="input-group">
                <select aria-label={t('search:post-time')} className="form-select" value={form.timeFilter} onChange={(e) => set('timeFilter', e.target.value)}>
                  <option value="newer">{t('search:newer-than')}</option>
                  <option value="older">{t('search:older-than')}</option>
                </select>
                <select aria-label={t('search:post-time')} className="form-select" value={form.timeRange} onChange={(e) => set('timeRange', e.target.value)}>
                  <option value="">{t('search:any-date')}</option>
                  {TIMES.map(([v, label]) => (
                    <option key={v} value={v}>{t(label)}</option>
                  ))}
                </select>
              </div>
            </fieldset>
            <fieldset className="col-12 col-sm-6 col-lg-3">
              <legend className="form-label small fw-semibold mb-2">{t('search:sort-by')}</legend>
              <div className="input-group">
                <select aria-label={t('search:sort-by')} className="form-select" value={form.sortBy} onChange={(e) => set('sortBy', e.target.value)}>
                  {SORTS.map(([v, label]) => (
                    <option key={v} value={v}>{t(label)}</option>
                  ))}
                </select>
                <select aria-label={t('search:sort-by')} className="form-select" value={form.sortDirection} onChange={(e) => set('sortDirection', e.target.value)}>
                  <option value="desc">{t('search:descending')}</option>
                  <option value="asc">{t('search:ascending')}</option>
                </select>
              </div>
            </fieldset>
            <div className="col-12 col-sm-6 col-lg-3 d-flex flex-column gap-2">
              <Choice label={t('search:match-words')} name={`${id}-match`} value={form.matchWords} onChange={(v) => set('matchWords', v)} options={[['all', t('search:match-all-words')], ['any', t('search:match-any-word')]]} />
              <Choice label={t('search:show-results-as')} name={`${id}-show`} value={form.showAs} onChange={(v) => set('showAs', v)} options={[['posts', t('search:show-results-as-posts')], ['topics', t('search:show-results-as-topics')]]} />
            </div>
            <div className="col-12">
              <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => setForm({ ...formOf({ ...data, filters: {} }), term: form.term, in: form.in })}>
                {t('search:clear-filters')}
              </button>
            </div>
          </div>
        )}
      </form>
      {searched && (
        <p className="text-body-secondary small" role="status">
          {data.matchCount ? t('search:results-matching', humanReadableNumber(data.matchCount), data.search_query, data.time) : t('search:no-matches')}
        </p>
      )}
      {shown === 'users' ? <UserResults data={data} /> : shown === 'tags' ? <TagResults data={data} /> : shown === 'categories' ? <CategoryResults data={data} /> : <PostResults data={data} />}
      {data.multiplePages && <Pagination pagination={data.pagination} />}
    </>
  );
}

function Choice({ label, name, value, options, onChange }: { label: string; name: string; value: string; options: [string, string][]; onChange: (v: string) => void }) {
  return (
    <fieldset>
      <legend className="form-label small fw-semibold mb-1">{label}</legend>
      <div className="btn-group btn-group-sm" role="group">
        {options.map(([v, text]) => (
          <span key={v}>
            <input type="radio" className="btn-check" name={name} id={`${name}-${v}`} checked={value === v} onChange={() => onChange(v)} />
            <label className="btn btn-outline-secondary" htmlFor={`${name}-${v}`}>{text}</label>
          </span>
        ))}
      </div>
    </fieldset>
  );
}

function PostResults({ data }: { data: SearchPage }) {
  if (!data.posts?.length) return null;
  return (
    <ul className="list-unstyled d-flex flex-column gap-2 search-results">
      {data.posts.map((p) => (
        <PostResult key={p.pid} post={p} relativePath={data.relative_path} />
      ))}
    </ul>
  );
}

function PostResult({ post, relativePath }: { post: SearchResultPost; relativePath: string }) {
  const { t } = useT();
  return (
    <li className="card">
      <div className="card-body py-2 px-3">
        <a href={`${relativePath}/post/${post.pid}`} className="fw-semibold text-decoration-none d-block text-break" dir="auto" dangerouslySetInnerHTML={{ __html: post.topic.title }} />
        {/* The server cuts the post's text, escapes it and marks the terms: only <mark> remains as markup. */}
        <p className="mb-1 small text-break search-snippet" dir="auto" dangerouslySetInnerHTML={{ __html: post.snippet }} />
        <div className="d-flex flex-wrap align-items-center gap-2 small text-body-secondary">
          <a href={`${relativePath}${userPath(post.user.userslug)}`} className="d-inline-flex align-items-center gap-1 text-reset text-decoration-none">
            <Avatar user={post.user} size="xs" /> <bdi dir="auto">{post.user.displayname}</bdi>
          </a>
          <a href={`${relativePath}${categoryPath(post.category.cid, post.category.slug)}`} className="text-decoration-none" title={t('search:in-topic', post.category.name)}>
            <CategoryBadge category={post.category} />
          </a>
          <Timeago iso={post.timestampISO} />
        </div>
      </div>
    </li>
  );
}

function UserResults({ data }: { data: SearchPage }) {
  if (!data.users?.length) return null;
  return (
    <ul className="row row-cols-2 row-cols-sm-3 row-cols-md-4 row-cols-xl-6 g-3 list-unstyled">
      {data.users.map((u) => (
        <li className="col" key={u.uid}>
          <a href={`${data.relative_path}${userPath(u.userslug)}`} className="card h-100 text-center text-decoration-none">
            <div className="card-body d-flex flex-column align-items-center gap-2">
              <Avatar user={u} size="lg" />
              <div className="fw-semibold text-truncate w-100 text-body">{u.displayname}</div>
            </div>
          </a>
        </li>
      ))}
    </ul>
  );
}

function TagResults({ data }: { data: SearchPage }) {
  if (!data.tags?.length) return null;
  return (
    <ul className="d-flex flex-wrap gap-2 list-unstyled">
      {data.tags.map((tag) => (
        <li key={tag.value}>
          <a href={`${data.relative_path}/tags/${encodeURIComponent(tag.value)}`} className="btn btn-outline-secondary btn-sm d-inline-flex align-items-center gap-1">
            <Icon name="tag" size={14} /> {tag.value} <span className="badge text-bg-secondary">{humanReadableNumber(tag.score)}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function CategoryResults({ data }: { data: SearchPage }) {
  if (!data.categories?.length) return null;
  return (
    <ul className="list-unstyled d-flex flex-column gap-2">
      {data.categories.map((c) => (
        <li key={c.cid} className="card">
          <a href={`${data.relative_path}/category/${c.slug}`} className="card-body py-2 d-flex align-items-center gap-2 text-decoration-none">
            <CategoryIcon category={c} size={32} />
            <span className="fw-semibold text-body" dir="auto">{c.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
