import type { TopicPage } from '../../../shared/types';
import { api } from '../../app/api';
import type { Runtime } from '../../app/runtime';
import { errorText, translate } from '../../i18n';
import { listDrafts, removeDraft, saveDraft, saveId, type Draft } from '../../state/drafts';
import { topicPath } from '../../util/urls';
import { composeQuery, editPayload, newTopicPayload, quoteBody, replyPayload } from './payload';
import { announceQueued, schedulePayload } from './Scheduler';
import type { ComposerRequest, ComposerState } from './types';

const uidOf = (rt: Runtime) => Math.max(rt.page.get().page.loggedInUser?.uid ?? 0, 0);

/** The topic shown, when it is the given one (saves a fetch for its title and slug). */
function shownTopic(rt: Runtime, tid: number): TopicPage | null {
  const page = rt.page.get().page as TopicPage;
  return page.template?.name === 'topic' && page.tid === tid ? page : null;
}

async function topicInfo(rt: Runtime, tid: number): Promise<{ titleRaw: string; slug: string }> {
  const shown = shownTopic(rt, tid);
  if (shown) return { titleRaw: shown.titleRaw, slug: shown.slug };
  return api<{ titleRaw: string; slug: string }>(rt.config, 'GET', `/topics/${tid}`);
}

async function rawContent(rt: Runtime, pid: number): Promise<string> {
  const res = await api<{ content: string }>(rt.config, 'GET', `/posts/${pid}/raw`);
  return res?.content ?? '';
}

function blank(rt: Runtime, action: Draft['action'], id: number): ComposerState {
  return {
    save_id: saveId(uidOf(rt), action, id),
    action,
    cid: 0,
    tid: 0,
    pid: 0,
    toPid: 0,
    title: '',
    body: '',
    tags: [],
    titleEditable: action === 'topics.post',
    minimized: false,
    busy: false,
  };
}

/** Builds the composer state for a request (fetching titles, raw text and quotes as needed). */
export async function composerStateFor(rt: Runtime, req: ComposerRequest): Promise<ComposerState> {
  const t = (key: string, ...args: string[]) => translate(rt.i18n, key, args);
  let state: ComposerState;
  if (req.action === 'topics.post') {
    state = { ...blank(rt, req.action, req.cid ?? 0), cid: req.cid ?? 0, title: req.title ?? '', body: req.body ?? '', tags: req.tags ?? [] };
  } else if (req.action === 'posts.reply') {
    const title = req.title ?? (await topicInfo(rt, req.tid)).titleRaw;
    let body = req.body ?? '';
    if (req.selectedPid) {
      const raw = await rawContent(rt, req.selectedPid);
      const link = `[${title}](${rt.config.relative_path}/post/${req.selectedPid})`;
      body = quoteBody(t('modules:composer.user-said-in', `@${req.username ?? ''}`, link), raw);
    }
    state = { ...blank(rt, req.action, req.tid), tid: req.tid, toPid: req.toPid ?? 0, title, body, ...(req.selectedPid ? { quotedAt: Date.now() } : {}) };
    const open = rt.composer.get();
    // Quoting into an open reply to the same topic appends instead of replacing it.
    if (open && open.action === 'posts.reply' && open.tid === req.tid && req.selectedPid) {
      return { ...open, body: `${open.body.trimEnd()}\n\n${body}`.trimStart(), minimized: false, quotedAt: Date.now() };
    }
  } else {
    const [raw, info] = await Promise.all([rawContent(rt, req.pid), req.isMain && req.tid ? topicInfo(rt, req.tid) : null]);
    state = { ...blank(rt, req.action, req.pid), pid: req.pid, tid: req.tid ?? 0, body: raw, title: info?.titleRaw ?? '', titleEditable: !!req.isMain };
  }
  const draft = listDrafts(localStorage, uidOf(rt)).find((d) => d.save_id === state.save_id);
  if (draft && !('body' in req && req.body) && !(req.action === 'posts.reply' && req.selectedPid)) {
    state = { ...state, body: draft.text, title: state.titleEditable && draft.title ? draft.title : state.title, tags: draft.tags ?? state.tags };
  }
  return state;
}

/** Opens the composer: the compose route when composeRouteEnabled, otherwise inline. */
export async function openComposer(rt: Runtime, req: ComposerRequest): Promise<void> {
  if (rt.config.composeRouteEnabled) {
    rt.navigate(`${rt.config.relative_path}/compose?${composeQuery(req)}`);
    return;
  }
  const current = rt.composer.get();
  if (current && current.body.trim() && current.save_id !== saveId(uidOf(rt), req.action, idOf(req))) {
    // Another composer with text is open: it is kept as a draft before switching.
    storeDraft(rt, current);
  }
  try {
    rt.composer.set(await composerStateFor(rt, req));
  } catch (err) {
    rt.alert({ type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: errorText(rt.i18n, err) });
  }
}

function idOf(req: ComposerRequest): number {
  if (req.action === 'topics.post') return req.cid ?? 0;
  if (req.action === 'posts.reply') return req.tid;
  return req.pid;
}

/** Reopens a saved draft. */
export function openDraft(rt: Runtime, d: Draft): void {
  if (d.action === 'topics.post') void openComposer(rt, { action: 'topics.post', cid: d.cid, title: d.title, body: d.text, tags: d.tags });
  else if (d.action === 'posts.reply' && d.tid) void openComposer(rt, { action: 'posts.reply', tid: d.tid, toPid: d.toPid, body: d.text });
  else if (d.pid) void openComposer(rt, { action: 'posts.edit', pid: d.pid, tid: d.tid });
}

/** Keeps the composer's text as a draft in localStorage. */
export function storeDraft(rt: Runtime, s: ComposerState): void {
  const d: Draft = { save_id: s.save_id, action: s.action, title: s.titleEditable ? s.title : undefined, text: s.body, timestamp: Date.now(), cid: s.cid, tid: s.tid, pid: s.pid, toPid: s.toPid, tags: s.tags };
  rt.drafts.set(saveDraft(localStorage, uidOf(rt), d));
}

/** Closes the composer; its draft is removed when `discard` is set. */
export function closeComposer(rt: Runtime, discard: boolean): void {
  const s = rt.composer.get();
  if (s && discard) rt.drafts.set(removeDraft(localStorage, uidOf(rt), s.save_id));
  rt.setUnsaved('composer', false);
  rt.composer.set(null);
}

/** Client-side checks with the forum's limits; returns an error text or null. */
export function validateComposer(rt: Runtime, s: ComposerState): string | null {
  const c = rt.config;
  const t = (key: string, ...args: (string | number)[]) => translate(rt.i18n, key, args);
  if (s.action === 'topics.post' && !s.cid) return t('error:invalid-cid');
  if (s.titleEditable) {
    const len = s.title.trim().length;
    if (len < c.minimumTitleLength) return t('error:title-too-short', c.minimumTitleLength);
    if (len > c.maximumTitleLength) return t('error:title-too-long', c.maximumTitleLength);
  }
  const body = s.body.trim().length;
  if (body < c.minimumPostLength) return t('error:content-too-short', c.minimumPostLength);
  if (body > c.maximumPostLength) return t('error:content-too-long', c.maximumPostLength);
  if (s.action === 'topics.post') {
    if (s.tags.length < c.minimumTagsPerTopic) return t('error:not-enough-tags', c.minimumTagsPerTopic);
    if (s.tags.length > c.maximumTagsPerTopic) return t('error:too-many-tags', c.maximumTagsPerTopic);
    // The server, as NodeBB's, posts a topic with a past time at once: the composer refuses it.
    const at = schedulePayload(s.save_id).timestamp;
    if (at !== undefined && at <= Date.now()) return t('error:invalid-schedule-date');
  }
  return null;
}

/** Sends the composer with the spec §3 payload, then shows the result. */
export async function submitComposer(rt: Runtime): Promise<void> {
  const s = rt.composer.get();
  if (!s || s.busy) return;
  const error = validateComposer(rt, s);
  if (error) {
    rt.alert({ alert_id: 'composer-error', type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: error });
    return;
  }
  rt.composer.set({ ...s, busy: true });
  const rp = rt.config.relative_path;
  try {
    let target: string;
    if (s.action === 'topics.post') {
      // A scheduled topic carries its time; a queued one answers queued: true (brief Q: Scheduler.tsx).
      const topic = await api<{ tid: number; slug: string; queued?: boolean }>(rt.config, 'POST', '/topics', { ...newTopicPayload(s.cid, s.title.trim(), s.body, s.tags), ...schedulePayload(s.save_id) });
      if (announceQueued(rt, topic, () => closeComposer(rt, true))) return;
      target = `${rp}${topicPath(topic.tid, topic.slug)}`;
    } else if (s.action === 'posts.reply') {
      const post = await api<{ pid: number; index?: number; queued?: boolean }>(rt.config, 'POST', `/topics/${s.tid}`, replyPayload(s.body, s.toPid));
      if (announceQueued(rt, post, () => closeComposer(rt, true))) return;
      const info = await topicInfo(rt, s.tid);
      target = `${rp}${topicPath(s.tid, info.slug, (post.index ?? 0) + 1)}`;
    } else {
      await api(rt.config, 'PUT', `/posts/${s.pid}`, editPayload(s.body, s.titleEditable ? s.title.trim() : null));
      // Inline, the page stays where it is; from the compose page, to the edited post.
      target = rt.page.get().page.template?.name === 'compose' ? `${rp}/post/${s.pid}` : location.href;
    }
    closeComposer(rt, true);
    rt.alert({ type: 'success', message: translate(rt.i18n, s.action === 'posts.edit' ? 'modules:composer.edited' : 'modules:composer.posted') });
    rt.navigate(target, { force: true, replace: s.action === 'posts.edit' });
  } catch (err) {
    rt.composer.set((cur) => (cur ? { ...cur, busy: false } : cur));
    rt.alert({ alert_id: 'composer-error', type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: errorText(rt.i18n, err) });
  }
}
