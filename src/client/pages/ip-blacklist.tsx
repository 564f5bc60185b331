import { useState } from 'react';
import type { BlacklistRuleView, BlacklistTest, IpBlacklistPage } from '../../shared/schemas/moderation';
import type { PageBase } from '../../shared/types';
import { api } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { PageHeader } from '../components/PageHeader';
import { Timeago } from '../components/Timeago';

/**
 * The IP blacklist (`/ip-blacklist`): the rules as text (addresses and CIDR ranges, `#`
 * comments), a box that tests an address against the rules being edited, and each saved
 * rule with its hit count.
 */
export default function IpBlacklist({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const d = page as IpBlacklistPage;
  const [rules, setRules] = useState(d.rules);
  const [parsed, setParsed] = useState<BlacklistRuleView[]>(d.parsed);
  const [ip, setIp] = useState('');
  const [result, setResult] = useState<BlacklistTest | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const saved = await api<{ rules: string; parsed: BlacklistRuleView[] }>(rt.config, 'PUT', '/ip-blacklist', { rules });
      setParsed(saved.parsed);
      rt.alert({ type: 'success', message: t('ip-blacklist:alerts.applied-success') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const test = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      setResult(await api<BlacklistTest>(rt.config, 'POST', '/ip-blacklist/test', { ip: ip.trim(), rules }));
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };

  return (
    <>
      <PageHeader title={t('pages:ip-blacklist')} subtitle={t('ip-blacklist:lead')} />
      <p className="text-body-secondary small">{t('ip-blacklist:description')}</p>
      <div className="row g-3">
        <div className="col-lg-7">
          <form className="card mb-3" onSubmit={(e) => void save(e)}>
            <div className="card-body">
              <label className="form-label fw-semibold" htmlFor="blacklist-rules">{t('ip-blacklist:rules-label')}</label>
              <textarea id="blacklist-rules" className="form-control font-monospace" rows={10} spellCheck={false} value={rules} onChange={(e) => setRules(e.target.value)} aria-describedby="blacklist-hints" />
              <ul id="blacklist-hints" className="small text-body-secondary mt-2 mb-0 ps-3">
                <li dangerouslySetInnerHTML={{ __html: t('ip-blacklist:hint-1') }} />
                <li dangerouslySetInnerHTML={{ __html: t('ip-blacklist:hint-2') }} />
              </ul>
            </div>
            <div className="card-footer text-end">
              <button type="submit" className="btn btn-primary" disabled={busy || !d.canEdit}>{t('ip-blacklist:apply')}</button>
            </div>
          </form>
        </div>
        <div className="col-lg-5">
          <form className="card mb-3" onSubmit={(e) => void test(e)} data-testid="blacklist-test">
            <div className="card-body">
              <h2 className="h6">{t('ip-blacklist:test')}</h2>
              <div className="input-group">
                <label className="visually-hidden" htmlFor="blacklist-ip">{t('ip-blacklist:test-label')}</label>
                <input id="blacklist-ip" className="form-control font-monospace" placeholder="203.0.113.7" value={ip} onChange={(e) => setIp(e.target.value)} />
                <button type="submit" className="btn btn-outline-primary" disabled={!ip.trim()}>{t('ip-blacklist:test-button')}</button>
              </div>
              {result && (
                <div role="status" data-testid="blacklist-result" className={`alert mt-3 mb-0 py-2 ${!result.valid ? 'alert-warning' : result.blocked ? 'alert-danger' : 'alert-success'}`}>
                  {!result.valid ? t('ip-blacklist:test.invalid', result.ip) : result.blocked ? t('ip-blacklist:test.blocked', result.ip, result.rule ?? '', result.line) : t('ip-blacklist:test.allowed', result.ip)}
                </div>
              )}
            </div>
          </form>
          <section className="card" aria-labelledby="blacklist-active">
            <div className="card-header"><h2 id="blacklist-active" className="h6 mb-0">{t('ip-blacklist:active-rules')}</h2></div>
            {parsed.length ? (
              <div className="table-responsive">
                <table className="table table-sm mb-0 small" data-testid="blacklist-rules">
                  <thead>
                    <tr>
                      <th scope="col">{t('ip-blacklist:rule')}</th>
                      <th scope="col" className="text-end">{t('ip-blacklist:hits')}</th>
                      <th scope="col">{t('ip-blacklist:last-hit')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {parsed.map((r) => (
                      <tr key={`${r.line}-${r.rule}`}>
                        <td><code>{r.rule}</code></td>
                        <td className="text-end">{r.hits}</td>
                        <td>{r.lastHit > 0 ? <Timeago ts={r.lastHit} iso={new Date(r.lastHit).toISOString()} /> : '–'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <div className="card-body small text-body-secondary">{t('ip-blacklist:no-rules')}</div>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
