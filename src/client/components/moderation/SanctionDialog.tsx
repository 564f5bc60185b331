import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';

const OTHER = '__other__';
const HOUR_MS = 3_600_000;

/**
 * The ban or mute dialog: a preset reason (the forum's list) or free text, and a length in
 * hours or days, or permanent (a ban only; a mute needs an end). Saves through
 * PUT /api/v3/users/{uid}/ban|mute and calls `onDone` once it is saved.
 */
export function SanctionDialog({ kind, uid, username, reasons, onClose, onDone }: { kind: 'ban' | 'mute'; uid: number; username: string; reasons: string[]; onClose: () => void; onDone: () => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const [choice, setChoice] = useState(reasons[0] ?? OTHER);
  const [custom, setCustom] = useState('');
  const [permanent, setPermanent] = useState(kind === 'ban');
  const [amount, setAmount] = useState(kind === 'ban' ? 1 : 24);
  const [unit, setUnit] = useState<'hours' | 'days'>(kind === 'ban' ? 'days' : 'hours');
  const [busy, setBusy] = useState(false);
  const id = `sanction-${kind}`;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const reason = choice === OTHER ? custom.trim() : choice;
    const until = permanent ? 0 : Date.now() + amount * (unit === 'days' ? 24 : 1) * HOUR_MS;
    setBusy(true);
    try {
      await api(rt.config, 'PUT', `/users/${uid}/${kind}`, { until, reason });
      rt.alert({ type: 'success', message: t(`user:${kind}.success`) });
      onDone();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal show onHide={onClose} centered aria-labelledby={`${id}-title`}>
      <form onSubmit={(e) => void submit(e)} data-testid={`${kind}-dialog`}>
        <Modal.Header closeButton closeLabel={t('global:close')}>
          <Modal.Title as="h2" className="h5" id={`${id}-title`}>
            {t(`user:${kind}.title`, username)}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <div className="mb-3">
            <label className="form-label" htmlFor={`${id}-reason`}>{t('user:ban.reason')}</label>
            <select id={`${id}-reason`} className="form-select" value={choice} onChange={(e) => setChoice(e.target.value)}>
              {reasons.map((r) => (
                <option key={r} value={r}>{r}</option>
              ))}
              <option value={OTHER}>{t('user:ban.custom-reason')}</option>
            </select>
          </div>
          {choice === OTHER && (
            <div className="mb-3">
              <label className="form-label" htmlFor={`${id}-custom`}>{t('user:ban.custom-reason')}</label>
              <input id={`${id}-custom`} className="form-control" maxLength={500} value={custom} onChange={(e) => setCustom(e.target.value)} />
            </div>
          )}
          <fieldset>
            <legend className="form-label fs-6">{t('user:ban.length')}</legend>
            {kind === 'ban' && (
              <div className="form-check mb-2">
                <input id={`${id}-permanent`} type="checkbox" className="form-check-input" checked={permanent} onChange={(e) => setPermanent(e.target.checked)} />
                <label className="form-check-label" htmlFor={`${id}-permanent`}>{t('user:ban.permanent')}</label>
              </div>
            )}
            {!permanent && (
              <div className="input-group">
                <label className="visually-hidden" htmlFor={`${id}-amount`}>{t('user:ban.duration')}</label>
                <input id={`${id}-amount`} type="number" min={1} max={3650} className="form-control" value={amount} onChange={(e) => setAmount(Math.max(1, Number(e.target.value) || 1))} />
                <label className="visually-hidden" htmlFor={`${id}-unit`}>{t('user:ban.length')}</label>
                <select id={`${id}-unit`} className="form-select" value={unit} onChange={(e) => setUnit(e.target.value as 'hours' | 'days')}>
                  <option value="hours">{t('user:ban.hours')}</option>
                  <option value="days">{t('user:ban.days')}</option>
                </select>
              </div>
            )}
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>{t('user:ban.cancel')}</button>
          <button type="submit" className="btn btn-danger" disabled={busy || (choice === OTHER && !custom.trim())}>{t(`user:${kind}.submit`)}</button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
