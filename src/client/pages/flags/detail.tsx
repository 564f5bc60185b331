import { useEffect, useId, useState } from 'react';
import { FLAG_STATES, type FlagDetailsPage, type FlagHistoryEntry, type FlagNote } from '../../../shared/schemas/flag';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { PageHeader } from '../../components/PageHeader';
import { PostContent } from '../../components/PostContent';
import { Timeago } from '../../components/Timeago';
import { SanctionDialog } from '../../components/moderation/SanctionDialog';
import { errorText } from '../../i18n';
import { useStore } from '../../state/store';
import { topicPath, userPath } from '../../util/urls';
import { STATE_BADGE } from './list';

/** The flagged thing in context: the post with its topic, the member's card, the chat message. */
function Target({ data }: { data: FlagDetailsPage }) {
  const rt = useRuntime();
  const { t } = useT();
  const rp = rt.config.relative_path;
  const target = data.target;
  if (data.type_bool.empty) return <div className="alert alert-secondary mb-0">{t('flags:target-purged')}</div>;
  const author = target.user;
  return (
    <div data-testid="flag-target">
      {author && (
        <div className="d-flex align-items-center gap-2 mb-2">
          <Avatar user={author} size="sm" />
          <a href={`${rp}${userPath(author.userslug)}`} className="fw-semibold">{author.displayname}</a>
          {target.timestampISO && target.timestamp !== undefined && <span className="small text-body-secondary"><Timeago iso={target.timestampISO} ts={target.timestamp} /></span>}
          {target.banned && <span className="badge text-bg-danger">{t('flags:banned')}</span>}
        </div>
      )}
      {data.type_bool.post && target.topic && (
        <p className="small mb-2">
          {t('flags:in-topic')}{' '}
          <a href={`${rp}${topicPath(target.topic.tid, target.topic.slug)}`}>{target.topic.title}</a>
          {target.category && <span className="text-body-secondary"> · <bdi dir="auto">{target.category.name}</bdi></span>}
        </p>
      )}
      {!!target.deleted && <div className="alert alert-warning py-1 px-2 small">{t('flags:deleted-post')}</div>}
      {target.content !== undefined && (
        <div className="border rounded p-3 bg-body-tertiary">
          <PostContent html={target.content} />
        </div>
      )}
      {data.type_bool.user && target.postcount !== undefined && <p className="small text-body-secondary mb-0">{t('flags:posts', target.postcount)}</p>}
      <div className="d-flex flex-wrap gap-2 mt-3">
        {data.type_bool.post && target.pid && <a className="btn btn-sm btn-outline-secondary" href={`${rp}/post/${target.pid}`}>{t('flags:go-to-target')}</a>}
        {data.type === 'message' && target.roomId && <a className="btn btn-sm btn-outline-secondary" href={`${rp}/chats/${target.roomId}`}>{t('flags:go-to-target')}</a>}
        {author && <a className="btn btn-sm btn-outline-secondary" href={`${rp}${userPath(author.userslug)}`}>{t('flags:view-profile')}</a>}
      </div>
    </div>
  );
}

/**
 * NodeBB's flag page actions: delete the flagged post, ban or mute its author, each through the
 * forum's own routes (and so their privileges); the page reloads to show the result.
 */
function FlagActions({ data, onDone }: { data: FlagDetailsPage; onDone: () => void }) {
  const rt = useRuntime();
  const { t } = useT();
  const id = useId();
  const [dialog, setDialog] = useState<'ban' | 'mute' | null>(null);
  const [busy, setBusy] = useState(false);
  const { actions, target } = data;
  const author = target.user;
  if (!actions.deletePost && !actions.ban && !actions.mute) return null;
  const deletePost = async () => {
    if (!target.pid || !window.confirm(t('flags:delete-post-confirm'))) return;
    setBusy(true);
    try {
      await api(rt.config, 'DELETE', `/posts/${target.pid}/state`);
      rt.alert({ type: 'success', message: t('flags:post-deleted') });
      onDone();
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    }
    setBusy(false);
  };
  return (
    <section className="card card-body d-flex flex-column gap-2" aria-labelledby={`${id}-actions`} data-testid="flag-actions">
      <h2 className="h6" id={`${id}-actions`}>{t('flags:actions')}</h2>
      {actions.deletePost && (
        <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => void deletePost()}>{t('flags:delete-post')}</button>
      )}
      {author && actions.ban && !actions.banned && (
        <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => setDialog('ban')}>{t('flags:ban-author', author.displayname)}</button>
      )}
      {author && actions.mute && !actions.muted && (
        <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy} onClick={() => setDialog('mute')}>{t('flags:mute-author', author.displayname)}</button>
      )}
      <div className="d-flex gap-1">
        {actions.banned && <span className="badge text-bg-danger">{t('flags:banned')}</span>}
        {actions.muted && <span className="badge text-bg-warning">{t('flags:muted')}</span>}
      </div>
      {author && dialog && (
        <SanctionDialog
          kind={dialog}
          uid={author.uid}
          username={author.displayname}
          reasons={actions.banReasons}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            onDone();
          }}
        />
      )}
    </section>
  );
}

function HistoryItem({ entry }: { entry: FlagHistoryEntry }) {
  const { tx } = useT();
  return (
    <li className="list-group-item small">
      <div className="d-flex align-items-center gap-2">
        <Avatar user={entry.user} size="xs" />
        <span className="fw-semibold">{entry.user.displayname}</span>
        <span className="text-body-secondary ms-auto"><Timeago iso={entry.datetimeISO} ts={entry.datetime} /></span>
      </div>
      <div className="d-flex flex-wrap gap-1 mt-1">
        {entry.meta.map((m, i) => (
          <span key={i} className="badge text-bg-light border">
            {tx(m.key)}
            {m.value ? `: ${tx(m.value)}` : ''}
          </span>
        ))}
      </div>
    </li>
  );
}

/** /flags/:flagId: the target in context, the reports, state and assignee controls, notes and history. */
export default function FlagDetail({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const user = useUser();
  const id = useId();
  const data = page as FlagDetailsPage;
  const { seq } = useStore(rt.page);
  const [state, setState] = useState<string>(data.state);
  const [assignee, setAssignee] = useState<string>(data.assignee ? String(data.assignee) : '0');
  const [notes, setNotes] = useState<FlagNote[]>(data.notes);
  const [history, setHistory] = useState<FlagHistoryEntry[]>(data.history);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setState(data.state);
    setAssignee(data.assignee ? String(data.assignee) : '0');
    setNotes(data.notes);
    setHistory(data.history);
  }, [seq, data]);
  const fail = (err: unknown) => rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });

  const update = async (change: { state?: string; assignee?: number }) => {
    setBusy(true);
    try {
      const res = await api<{ history: FlagHistoryEntry[] }>(rt.config, 'PUT', `/flags/${data.flagId}`, change);
      setHistory(res.history);
      if (change.state) setState(change.state);
      if (change.assignee !== undefined) setAssignee(String(change.assignee));
      rt.alert({ type: 'success', message: t('flags:updated') });
    } catch (err) {
      fail(err);
    }
    setBusy(false);
  };
  const addNote = async () => {
    if (!note.trim()) return;
    setBusy(true);
    try {
      const res = await api<{ notes: FlagNote[]; history: FlagHistoryEntry[] }>(rt.config, 'POST', `/flags/${data.flagId}/notes`, { note });
      setNotes(res.notes);
      setHistory(res.history);
      setNote('');
    } catch (err) {
      fail(err);
    }
    setBusy(false);
  };
  const deleteNote = async (n: FlagNote) => {
    if (!window.confirm(t('flags:delete-note-confirm'))) return;
    try {
      const res = await api<{ notes: FlagNote[]; history: FlagHistoryEntry[] }>(rt.config, 'DELETE', `/flags/${data.flagId}/notes/${n.datetime}`);
      setNotes(res.notes);
      setHistory(res.history);
    } catch (err) {
      fail(err);
    }
  };
  const deleteFlag = async () => {
    if (!window.confirm(t('flags:delete-flag-confirm'))) return;
    try {
      await api(rt.config, 'DELETE', `/flags/${data.flagId}`);
      rt.alert({ type: 'success', message: t('flags:flag-deleted') });
      rt.navigate(`${rt.config.relative_path}/flags`);
    } catch (err) {
      fail(err);
    }
  };

  return (
    <>
      <PageHeader
        title={tx(data.title)}
        subtitle={
          <span className="d-inline-flex flex-wrap gap-2 align-items-center">
            <span className={`badge ${STATE_BADGE[state] ?? 'text-bg-secondary'}`} data-testid="flag-state">{tx(`[[flags:state-${state}]]`)}</span>
            <span>{data.target_readable}</span>
          </span>
        }
      >
        <a href={`${rt.config.relative_path}/flags`} className="btn btn-sm btn-outline-primary">{t('flags:back-to-list')}</a>
      </PageHeader>
      <div className="row g-3 align-items-start">
        <div className="col-lg-8 d-flex flex-column gap-3">
          <section className="card card-body" aria-labelledby={`${id}-target`}>
            <h2 className="h6" id={`${id}-target`}>{t(`flags:type-${data.type}`)}</h2>
            <Target data={data} />
          </section>
          <section className="card" aria-labelledby={`${id}-reports`}>
            <h2 className="h6 card-header" id={`${id}-reports`}>{t('flags:reports')} ({data.reports.length})</h2>
            <ul className="list-group list-group-flush" data-testid="flag-reports">
              {data.reports.map((r) => (
                <li key={r.reporter.uid} className="list-group-item">
                  <div className="d-flex align-items-center gap-2 small">
                    <Avatar user={r.reporter} size="xs" />
                    <a href={`${rt.config.relative_path}${userPath(r.reporter.userslug)}`} className="fw-semibold">{r.reporter.displayname}</a>
                    <span className="text-body-secondary ms-auto"><Timeago iso={r.timestampISO} ts={r.timestamp} /></span>
                  </div>
                  <p className="mb-0 mt-1 text-break">{r.value}</p>
                </li>
              ))}
            </ul>
          </section>
          <section className="card" aria-labelledby={`${id}-notes`}>
            <h2 className="h6 card-header" id={`${id}-notes`}>{t('flags:notes')}</h2>
            <div className="card-body">
              <form
                className="d-flex flex-column gap-2 mb-3"
                onSubmit={(e) => {
                  e.preventDefault();
                  void addNote();
                }}
              >
                <label htmlFor={`${id}-note`} className="visually-hidden">{t('flags:add-note')}</label>
                <textarea id={`${id}-note`} className="form-control" rows={2} maxLength={5000} placeholder={t('flags:note-placeholder')} value={note} onChange={(e) => setNote(e.target.value)} />
                <button type="submit" className="btn btn-sm btn-primary align-self-end" disabled={busy || !note.trim()}>{t('flags:add-note')}</button>
              </form>
              {notes.length ? (
                <ul className="list-unstyled mb-0 d-flex flex-column gap-2" data-testid="flag-notes">
                  {notes.map((n) => (
                    <li key={n.datetime} className="border rounded p-2">
                      <div className="d-flex align-items-center gap-2 small">
                        <Avatar user={n.user} size="xs" />
                        <span className="fw-semibold">{n.user.displayname}</span>
                        <span className="text-body-secondary"><Timeago iso={n.datetimeISO} ts={n.datetime} /></span>
                        {(n.uid === user?.uid || data.privileges.isAdmin) && (
                          <button type="button" className="btn btn-sm btn-link text-danger ms-auto p-0" onClick={() => void deleteNote(n)}>{t('flags:delete-note')}</button>
                        )}
                      </div>
                      <p className="mb-0 mt-1 text-break" style={{ whiteSpace: 'pre-wrap' }}>{n.content}</p>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="small text-body-secondary mb-0">{t('flags:no-notes')}</p>
              )}
            </div>
          </section>
        </div>
        <div className="col-lg-4 d-flex flex-column gap-3">
          <section className="card card-body d-flex flex-column gap-2" aria-labelledby={`${id}-work`}>
            <h2 className="h6" id={`${id}-work`}>{t('flags:update')}</h2>
            <label htmlFor={`${id}-state`} className="form-label small mb-0">{t('flags:state')}</label>
            <select id={`${id}-state`} className="form-select form-select-sm" value={state} disabled={busy} onChange={(e) => void update({ state: e.target.value })}>
              {FLAG_STATES.map((s) => <option key={s} value={s}>{t(`flags:state-${s}`)}</option>)}
            </select>
            <label htmlFor={`${id}-assignee`} className="form-label small mb-0">{t('flags:assignee')}</label>
            <select id={`${id}-assignee`} className="form-select form-select-sm" value={assignee} disabled={busy} onChange={(e) => void update({ assignee: Number(e.target.value) })}>
              <option value="0">{t('flags:no-assignee')}</option>
              {data.assignees.map((u) => <option key={u.uid} value={u.uid}>{u.displayname}</option>)}
            </select>
            {user && assignee !== String(user.uid) && data.assignees.some((u) => u.uid === user.uid) && (
              <button type="button" className="btn btn-sm btn-outline-primary" disabled={busy} onClick={() => void update({ assignee: user.uid })}>{t('flags:assign-to-me')}</button>
            )}
            {data.privileges['flags:delete'] && <button type="button" className="btn btn-sm btn-outline-danger mt-2" onClick={() => void deleteFlag()}>{t('flags:delete')}</button>}
          </section>
          <FlagActions data={data} onDone={() => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true })} />
          <section className="card" aria-labelledby={`${id}-history`}>
            <h2 className="h6 card-header" id={`${id}-history`}>{t('flags:history')}</h2>
            {history.length ? (
              <ul className="list-group list-group-flush" data-testid="flag-history">
                {history.map((h, i) => <HistoryItem key={`${h.datetime}-${i}`} entry={h} />)}
              </ul>
            ) : (
              <p className="card-body small text-body-secondary mb-0">{t('flags:no-history')}</p>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
