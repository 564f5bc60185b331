import { useState } from 'react';
import type { AccountInfoPage, BanMuteEntry, ModerationNote } from '../../../shared/schemas/moderation';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Avatar } from '../../components/Avatar';
import { PageHeader } from '../../components/PageHeader';
import { Timeago, useAbsoluteDate } from '../../components/Timeago';
import { SanctionDialog } from '../../components/moderation/SanctionDialog';
import { AccountNav } from './AccountNav';

function History({ title, empty, entries, t }: { title: string; empty: string; entries: BanMuteEntry[]; t: (k: string, ...a: (string | number)[]) => string }) {
  const date = useAbsoluteDate();
  return (
    <section className="card mb-3" aria-labelledby={`h-${title}`}>
      <div className="card-header"><h2 id={`h-${title}`} className="h6 mb-0">{t(title)}</h2></div>
      {entries.length ? (
        <ul className="list-group list-group-flush">
          {entries.map((e) => (
            <li key={`${e.kind}-${e.timestamp}`} className="list-group-item small">
              <div className="d-flex flex-wrap gap-2 align-items-center">
                <span className={`badge text-wrap text-start ${e.kind === 'ban' || e.kind === 'mute' ? 'text-bg-danger' : 'text-bg-success'}`}>
                  {e.kind === 'ban' || e.kind === 'mute'
                    ? e.until > 0
                      ? t(e.kind === 'ban' ? 'user:info.banned-until' : 'user:info.muted-until', date(e.until))
                      : t(e.kind === 'ban' ? 'user:info.banned-permanently' : 'user:info.muted-permanently')
                    : t(e.kind === 'unban' ? 'user:info.unbanned' : 'user:info.unmuted')}
                </span>
                <span className="text-body-secondary">{t('user:info.by', e.user.username)}</span>
                <Timeago iso={e.timestampISO} ts={e.timestamp} />
              </div>
              <div className="mt-1">{e.reason ? t('user:info.reason', e.reason) : <span className="text-body-secondary">{t('user:info.no-reason')}</span>}</div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="card-body small text-body-secondary">{t(empty)}</div>
      )}
    </section>
  );
}

/** A list of the values an account has had (names, addresses), newest first, with when. */
function Identity({ id, title, values, t }: { id: string; title: string; values: { value: string; timestamp: number; timestampISO: string }[]; t: (k: string, ...a: (string | number)[]) => string }) {
  if (!values.length) return null;
  return (
    <section className="card mb-3" aria-labelledby={id}>
      <div className="card-header"><h2 id={id} className="h6 mb-0">{t(title)}</h2></div>
      <ul className="list-group list-group-flush">
        {values.map((v) => (
          <li key={`${v.value}-${v.timestamp}`} className="list-group-item small d-flex flex-wrap justify-content-between gap-2">
            <span className="text-break">{v.value}</span>
            <Timeago iso={v.timestampISO} ts={v.timestamp} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A member's moderation info (`/user/:userslug/info`): state, tools, history, addresses, other accounts, notes. */
export default function Info({ page }: { page: PageBase }) {
  const date = useAbsoluteDate();
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const d = page as AccountInfoPage;
  const me = useUser();
  const [dialog, setDialog] = useState<'ban' | 'mute' | null>(null);
  const [notes, setNotes] = useState<ModerationNote[]>(d.moderationNotes);
  const [note, setNote] = useState('');
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  const act = async (method: 'DELETE', path: string, success: string, confirm?: string) => {
    if (confirm && !window.confirm(confirm)) return;
    try {
      await api(rt.config, method, path);
      rt.alert({ type: 'success', message: t(success) });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };
  const addNote = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const saved = await api<ModerationNote>(rt.config, 'POST', `/users/${d.uid}/moderation-notes`, { note });
      setNotes((list) => [saved, ...list]);
      setNote('');
      rt.alert({ type: 'success', message: t('user:info.moderation-note.success') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };

  return (
    <>
      <AccountNav userslug={d.userslug} active="info" own={!!(me?.uid === d.uid || me?.isAdmin)} />
      <PageHeader title={t('pages:account/info')} subtitle={d.username} />
      <section className="card mb-3" aria-labelledby="info-status">
        <div className="card-body d-flex flex-column flex-md-row gap-3 align-items-md-center">
          <a href={`${rp}/user/${encodeURIComponent(d.userslug)}`} className="d-flex gap-2 align-items-center text-decoration-none flex-grow-1 min-w-0">
            <Avatar user={d} size="lg" />
            <span>
              <span id="info-status" className="fw-semibold d-block">{d.displayname}</span>
              <span className="d-flex flex-wrap gap-1 mt-1" data-testid="info-state">
                {d.banned && <span className="badge text-bg-danger text-wrap text-start">{d.banned_until > 0 ? t('user:info.banned-until', date(d.banned_until)) : t('user:info.banned-permanently')}</span>}
                {d.muted && <span className="badge text-bg-warning text-wrap text-start">{d.mutedUntil > 0 ? t('user:info.muted-until', date(d.mutedUntil)) : t('user:info.muted-permanently')}</span>}
                {!d.banned && !d.muted && <span className="small text-body-secondary">{t('user:info.not-sanctioned')}</span>}
              </span>
            </span>
          </a>
          <div className="d-flex flex-wrap gap-2">
            {d.canBan && (d.banned ? (
              <button type="button" className="btn btn-sm btn-outline-success" onClick={() => void act('DELETE', `/users/${d.uid}/ban`, 'user:unban.success')}>{t('user:unban-account')}</button>
            ) : (
              <button type="button" className="btn btn-sm btn-danger" onClick={() => setDialog('ban')}>{t('user:ban-account')}</button>
            ))}
            {d.canMute && (d.muted ? (
              <button type="button" className="btn btn-sm btn-outline-success" onClick={() => void act('DELETE', `/users/${d.uid}/mute`, 'user:unmute.success')}>{t('user:unmute-account')}</button>
            ) : (
              <button type="button" className="btn btn-sm btn-warning" onClick={() => setDialog('mute')}>{t('user:mute-account')}</button>
            ))}
            {d.canDeleteContent && (
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void act('DELETE', `/users/${d.uid}/content`, 'user:account-content-deleted', t('user:delete-content-confirm', d.username))}>{t('user:delete-content')}</button>
            )}
          </div>
        </div>
      </section>
      <div className="row g-3">
        <div className="col-lg-6">
          <History title="user:info.ban-history" empty="user:info.no-ban-history" entries={d.history.bans} t={t} />
          <History title="user:info.mute-history" empty="user:info.no-mute-history" entries={d.history.mutes} t={t} />
          <Identity id="info-usernames" title="user:info.username-history" values={d.usernames} t={t} />
          <Identity id="info-emails" title="user:info.email-history" values={d.emails} t={t} />
        </div>
        <div className="col-lg-6">
          <section className="card mb-3" aria-labelledby="info-ips">
            <div className="card-header"><h2 id="info-ips" className="h6 mb-0">{t('user:info.ips')}</h2></div>
            {d.ipHistory.length ? (
              <ul className="list-group list-group-flush" data-testid="info-ips">
                {d.ipHistory.map((ip) => (
                  <li key={ip.ip} className="list-group-item small d-flex flex-wrap justify-content-between gap-2">
                    <code>{ip.ip}</code>
                    <span className="text-body-secondary">{t('user:info.ip-seen', ip.days, date(ip.lastSeen))}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <div className="card-body small text-body-secondary">{t('user:info.no-ips')}</div>
            )}
          </section>
          <section className="card mb-3" aria-labelledby="info-others">
            <div className="card-header"><h2 id="info-others" className="h6 mb-0">{t('user:info.other-accounts')}</h2></div>
            {d.otherAccounts.length ? (
              <ul className="list-group list-group-flush" data-testid="info-others">
                {d.otherAccounts.map((u) => (
                  <li key={u.uid} className="list-group-item small d-flex flex-wrap gap-2 align-items-center">
                    <Avatar user={u} size="sm" />
                    <a href={`${rp}/user/${encodeURIComponent(u.userslug)}/info`}>{u.displayname}</a>
                    <span className="text-body-secondary">{u.ips.join(', ')}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <div className="card-body small text-body-secondary">{t('user:info.no-other-accounts')}</div>
            )}
          </section>
          <section className="card mb-3" aria-labelledby="info-sessions">
            <div className="card-header"><h2 id="info-sessions" className="h6 mb-0">{t('user:info.sessions')}</h2></div>
            {d.sessions.length ? (
              <ul className="list-group list-group-flush" data-testid="info-sessions">
                {d.sessions.map((s) => (
                  <li key={s.uuid} className="list-group-item small d-flex flex-wrap justify-content-between gap-2">
                    <span>{t('user:info.session-device', s.browser, s.version, s.platform)} <code>{s.ip}</code></span>
                    <Timeago iso={s.lastSeenISO} ts={s.lastSeen} />
                  </li>
                ))}
              </ul>
            ) : (
              <div className="card-body small text-body-secondary">{t('user:info.no-sessions')}</div>
            )}
          </section>
        </div>
      </div>
      <section className="card mb-3" aria-labelledby="info-notes">
        <div className="card-header"><h2 id="info-notes" className="h6 mb-0">{t('user:info.moderation-note')}</h2></div>
        <div className="card-body">
          <form className="mb-3" onSubmit={(e) => void addNote(e)}>
            <label className="visually-hidden" htmlFor="info-note">{t('user:info.moderation-note')}</label>
            <textarea id="info-note" className="form-control mb-2" rows={3} maxLength={5000} value={note} onChange={(e) => setNote(e.target.value)} />
            <button type="submit" className="btn btn-sm btn-primary" disabled={!note.trim()}>{t('user:info.moderation-note.add')}</button>
          </form>
          {notes.length ? (
            <ul className="list-unstyled mb-0" data-testid="info-notes">
              {notes.map((n) => (
                <li key={`${n.timestamp}-${n.uid}`} className="border-top pt-2 mt-2 small">
                  <div className="d-flex gap-2 align-items-center mb-1">
                    <Avatar user={n.user} size="sm" />
                    <strong>{n.user.username}</strong>
                    <Timeago iso={n.timestampISO} ts={n.timestamp} />
                  </div>
                  <div style={{ whiteSpace: 'pre-wrap' }}>{n.note}</div>
                </li>
              ))}
            </ul>
          ) : (
            <div className="small text-body-secondary">{t('user:info.no-notes')}</div>
          )}
        </div>
      </section>
      {dialog && <SanctionDialog kind={dialog} uid={d.uid} username={d.username} reasons={d.banReasons} onClose={() => setDialog(null)} onDone={() => { setDialog(null); reload(); }} />}
    </>
  );
}
