import { useEffect, useId, useState, type FormEvent } from 'react';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { SecurityKey, TwoFactorPage } from '../../../shared/security';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { FormError } from '../auth-shared';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Timeago } from '../../components/Timeago';
import { createCredential } from '../webauthn';
import { AccountNav } from './AccountNav';
import { SecurityNav } from './SecurityNav';

interface Enrolment {
  secret: string;
  uri: string;
  qr: string;
}

/** Backup codes, shown once: the member copies them, downloads them as a text file, or writes them down. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      rt.alert({ type: 'success', message: t('user:two-factor.backup-copied') });
    } catch {
      rt.alert({ type: 'danger', message: t('user:two-factor.backup-copy-failed') });
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${window.location.hostname || 'forum'}-backup-codes.txt`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <div className="alert alert-warning" role="status">
      <h2 className="h6">{t('user:two-factor.backup-title')}</h2>
      <p className="small mb-2">{t('user:two-factor.backup-intro')}</p>
      <ol className="font-monospace row row-cols-2 row-cols-sm-5 g-1 ps-4 mb-3" data-testid="backup-codes">
        {codes.map((c) => (
          <li key={c} className="col">
            {c}
          </li>
        ))}
      </ol>
      <div className="d-flex flex-wrap gap-2">
        <button type="button" className="btn btn-sm btn-outline-dark" onClick={() => void copy()}>
          {t('user:two-factor.backup-copy')}
        </button>
        <button type="button" className="btn btn-sm btn-outline-dark" onClick={download}>
          {t('user:two-factor.backup-download')}
        </button>
        <button type="button" className="btn btn-sm btn-dark" onClick={onDone}>
          {t('user:two-factor.backup-saved')}
        </button>
      </div>
    </div>
  );
}

/** One security key in the list: its name, when added and last used; rename; remove with the password. */
function KeyItem({
  item,
  busy,
  onRename,
  onRemove,
}: {
  item: SecurityKey;
  busy: boolean;
  onRename: (label: string) => Promise<boolean>;
  onRemove: (password: string) => Promise<boolean>;
}) {
  const { t } = useT();
  const id = useId();
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view');
  const [label, setLabel] = useState(item.label);
  const [password, setPassword] = useState('');
  return (
    <li className="list-group-item" data-testid="security-key" data-key-id={item.id}>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <div className="me-auto text-break">
          <div className="fw-semibold">{item.label}</div>
          <div className="small text-body-secondary">
            {t('user:two-factor.key-added-on')} <Timeago iso={item.createdISO} />
            {' · '}
            {item.lastUsedISO ? (
              <>
                {t('user:two-factor.key-last-used')} <Timeago iso={item.lastUsedISO} />
              </>
            ) : (
              t('user:two-factor.key-never-used')
            )}
          </div>
        </div>
        {mode === 'view' && (
          <div className="d-flex gap-2">
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setMode('rename')} disabled={busy}>
              {t('user:two-factor.key-rename')}
            </button>
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setMode('remove')} disabled={busy}>
              {t('user:two-factor.key-remove')}
            </button>
          </div>
        )}
      </div>
      {mode === 'rename' && (
        <form
          className="d-flex flex-wrap gap-2 mt-2"
          onSubmit={(e) => {
            e.preventDefault();
            void onRename(label).then((ok) => ok && setMode('view'));
          }}
        >
          <label htmlFor={`${id}-l`} className="visually-hidden">
            {t('user:two-factor.key-label')}
          </label>
          <input
            id={`${id}-l`}
            className="form-control form-control-sm flex-grow-1"
            style={{ maxWidth: 320 }}
            maxLength={64}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            autoFocus
          />
          <button type="submit" className="btn btn-sm btn-primary" disabled={busy || !label.trim()}>
            {t('user:two-factor.key-save')}
          </button>
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setMode('view')}>
            {t('user:two-factor.key-cancel')}
          </button>
        </form>
      )}
      {mode === 'remove' && (
        <form
          className="mt-2"
          onSubmit={(e) => {
            e.preventDefault();
            void onRemove(password).then((ok) => ok || setPassword(''));
          }}
        >
          <p className="small mb-2">{t('user:two-factor.key-remove-help')}</p>
          <div className="d-flex flex-wrap gap-2">
            <label htmlFor={`${id}-p`} className="visually-hidden">
              {t('user:security.current-password')}
            </label>
            <input
              id={`${id}-p`}
              type="password"
              className="form-control form-control-sm flex-grow-1"
              style={{ maxWidth: 260 }}
              autoComplete="current-password"
              placeholder={t('user:security.current-password')}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoFocus
            />
            <button type="submit" className="btn btn-sm btn-danger" disabled={busy || !password} data-testid="security-key-remove-confirm">
              {t('user:two-factor.key-remove-title', item.label)}
            </button>
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setMode('view')}>
              {t('user:two-factor.key-cancel')}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

/**
 * The account page `2factor`: enrol a TOTP key (QR code made by the forum, the secret as text
 * for apps without a camera, confirmed by a code) or turn it off with the password; add
 * security keys (WebAuthn: a USB/NFC key or a passkey) under a name, rename or remove them
 * (password); see the backup codes once, and make new ones with the password.
 */
export default function TwoFactor({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as TwoFactorPage;
  const id = useId();
  const [enabled, setEnabled] = useState(data.enabled);
  const [left, setLeft] = useState(data.backupCodesLeft);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [backupPassword, setBackupPassword] = useState('');
  const [keys, setKeys] = useState<SecurityKey[]>(data.keys);
  const [keyLabel, setKeyLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setEnabled(data.enabled);
    setLeft(data.backupCodesLeft);
    setKeys(data.keys);
  }, [data.enabled, data.backupCodesLeft, data.keys]);

  /** Runs an action with the page busy; an error shows above the sections. True when it worked. */
  const run = async (work: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (err) {
      setError(errorText(rt.i18n, err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const base = `/users/${data.uid}/2fa`;
  const begin = () => run(async () => setEnrolment(await api<Enrolment>(rt.config, 'POST', base, {})));
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const res = await api<{ backupCodes: string[] }>(rt.config, 'PUT', base, { code: code.trim() });
      setCodes(res.backupCodes);
      setLeft(res.backupCodes.length);
      setEnabled(true);
      setEnrolment(null);
      setCode('');
      rt.alert({ type: 'success', message: t('user:two-factor.enabled') });
    });
  };
  const regenerate = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const res = await api<{ backupCodes: string[] }>(rt.config, 'POST', `${base}/backup-codes`, { password: backupPassword });
      setCodes(res.backupCodes);
      setLeft(res.backupCodes.length);
      setBackupPassword('');
    });
  };
  const disable = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await api(rt.config, 'DELETE', base, { password });
      setEnabled(false);
      setCodes(null);
      setPassword('');
      // The backup codes stay while a security key is left for them to back up.
      if (keys.length === 0) setLeft(0);
      rt.alert({ type: 'info', message: t('user:two-factor.disabled') });
    });
  };

  // Security keys: options from the server, the browser makes the credential, the server checks and keeps it.
  const addKey = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const options = await api<PublicKeyCredentialCreationOptionsJSON>(rt.config, 'POST', `${base}/authn/options`, {});
      const response = await createCredential(options);
      const res = await api<{ key: SecurityKey; backupCodes: string[] | null }>(rt.config, 'POST', `${base}/authn`, { label: keyLabel.trim(), response });
      setKeys((k) => [...k, res.key]);
      setKeyLabel('');
      if (res.backupCodes) {
        setCodes(res.backupCodes);
        setLeft(res.backupCodes.length);
      }
      rt.alert({ type: 'success', message: t('user:two-factor.key-added') });
    });
  };
  const renameKey = (item: SecurityKey, label: string) =>
    run(async () => {
      await api(rt.config, 'PUT', `${base}/authn/${encodeURIComponent(item.id)}`, { label: label.trim() });
      setKeys((k) => k.map((x) => (x.id === item.id ? { ...x, label: label.replace(/\s+/g, ' ').trim() } : x)));
      rt.alert({ type: 'success', message: t('user:two-factor.key-renamed') });
    });
  const removeKey = (item: SecurityKey, pw: string) =>
    run(async () => {
      await api(rt.config, 'DELETE', `${base}/authn/${encodeURIComponent(item.id)}`, { password: pw });
      const rest = keys.filter((x) => x.id !== item.id);
      setKeys(rest);
      if (rest.length === 0 && !enabled) {
        setLeft(0);
        setCodes(null);
      }
      rt.alert({ type: 'info', message: t('user:two-factor.key-removed') });
    });
  const hasFactor = enabled || keys.length > 0;

  return (
    <>
      <AccountNav userslug={data.userslug} active="security" own />
      <PageHeader title={t('user:two-factor.title')} icon={<Icon name="lock" size={28} />} />
      <SecurityNav userslug={data.userslug} active="2factor" isSelf={data.isSelf} />
      <FormError message={error} />
      {codes && <BackupCodes codes={codes} onDone={() => setCodes(null)} />}
      <section className="card mb-3" data-testid="two-factor-state" data-enabled={enabled ? '1' : '0'} aria-labelledby={`${id}-totp`}>
        <div className="card-body">
          <h2 className="h5 card-title" id={`${id}-totp`}>
            {t('user:two-factor.totp-title')}
          </h2>
          {enabled ? (
            <>
              <p className="d-flex align-items-center gap-2 text-success fw-semibold">
                <Icon name="check" /> {t('user:two-factor.on')}
              </p>
              <form className="row g-2 align-items-end" onSubmit={disable}>
                <div className="col-sm-6">
                  <label htmlFor={`${id}-p`} className="form-label">
                    {t('user:security.current-password')}
                  </label>
                  <input
                    id={`${id}-p`}
                    type="password"
                    className="form-control"
                    autoComplete="current-password"
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                  />
                </div>
                <div className="col-sm-6 d-flex flex-wrap gap-2">
                  <button type="submit" className="btn btn-outline-danger" disabled={busy || !password} data-testid="two-factor-disable">
                    {t('user:two-factor.disable')}
                  </button>
                </div>
              </form>
            </>
          ) : enrolment ? (
            <div className="row g-4">
              <div className="col-md-auto text-center">
                <img
                  src={enrolment.qr}
                  width={200}
                  height={200}
                  alt={t('user:two-factor.qr-alt')}
                  className="border rounded bg-white"
                  data-testid="two-factor-qr"
                />
              </div>
              <div className="col-md">
                <ol className="ps-3">
                  <li className="mb-2">{t('user:two-factor.step-scan')}</li>
                  <li className="mb-2">
                    {t('user:two-factor.step-secret')}
                    <code className="d-block user-select-all text-break fs-6 mt-1" data-testid="two-factor-secret">
                      {enrolment.secret}
                    </code>
                  </li>
                  <li>{t('user:two-factor.step-code')}</li>
                </ol>
                <form className="d-flex gap-2" onSubmit={confirm}>
                  <label htmlFor={`${id}-c`} className="visually-hidden">
                    {t('login:two-factor.code')}
                  </label>
                  <input
                    id={`${id}-c`}
                    className="form-control font-monospace"
                    style={{ maxWidth: 160 }}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                    placeholder="123456"
                  />
                  <button type="submit" className="btn btn-primary" disabled={busy || code.trim().length !== 6}>
                    {t('user:two-factor.confirm')}
                  </button>
                </form>
              </div>
            </div>
          ) : (
            <>
              <p>{t('user:two-factor.intro')}</p>
              <button type="button" className="btn btn-primary" onClick={() => void begin()} disabled={busy} data-testid="two-factor-begin">
                {t('user:two-factor.begin')}
              </button>
            </>
          )}
        </div>
      </section>

      <section className="card mb-3" data-testid="security-keys" aria-labelledby={`${id}-keys`}>
        <div className="card-body">
          <h2 className="h5 card-title" id={`${id}-keys`}>
            {t('user:two-factor.keys-title')}
          </h2>
          <p className={keys.length > 0 ? 'text-body-secondary mb-0' : 'text-body-secondary'}>{t('user:two-factor.keys-intro')}</p>
          {keys.length === 0 && <p className="fst-italic mb-0">{t('user:two-factor.keys-none')}</p>}
        </div>
        {keys.length > 0 && (
          <ul className="list-group list-group-flush border-top">
            {keys.map((k) => (
              <KeyItem key={k.id} item={k} busy={busy} onRename={(label) => renameKey(k, label)} onRemove={(pw) => removeKey(k, pw)} />
            ))}
          </ul>
        )}
        <div className="card-body border-top">
          <form className="row g-2 align-items-end" onSubmit={addKey}>
            <div className="col-sm-7 col-md-6">
              <label htmlFor={`${id}-kl`} className="form-label">
                {t('user:two-factor.key-label')}
              </label>
              <input
                id={`${id}-kl`}
                className="form-control"
                maxLength={64}
                placeholder={t('user:two-factor.key-label-placeholder')}
                value={keyLabel}
                onChange={(e) => setKeyLabel(e.target.value)}
              />
            </div>
            <div className="col-sm-5 col-md-6">
              <button type="submit" className="btn btn-primary" disabled={busy || !keyLabel.trim()} data-testid="security-key-add">
                {t('user:two-factor.key-add')}
              </button>
            </div>
          </form>
        </div>
      </section>

      {hasFactor && (
        <section className="card" data-testid="backup-codes-section" aria-labelledby={`${id}-backup`}>
          <div className="card-body">
            <h2 className="h5 card-title" id={`${id}-backup`}>
              {t('user:two-factor.backup-section')}
            </h2>
            <p className="text-body-secondary mb-1">{t('user:two-factor.backup-section-help')}</p>
            <p data-testid="backup-codes-left">{t('user:two-factor.codes-left', left)}</p>
            <form className="row g-2 align-items-end" onSubmit={regenerate}>
              <div className="col-sm-6">
                <label htmlFor={`${id}-bp`} className="form-label">
                  {t('user:security.current-password')}
                </label>
                <input
                  id={`${id}-bp`}
                  type="password"
                  className="form-control"
                  autoComplete="current-password"
                  value={backupPassword}
                  onChange={(e) => setBackupPassword(e.target.value)}
                />
              </div>
              <div className="col-sm-6">
                <button type="submit" className="btn btn-outline-primary" disabled={busy || !backupPassword}>
                  {t('user:two-factor.new-codes')}
                </button>
              </div>
            </form>
          </div>
        </section>
      )}
    </>
  );
}
