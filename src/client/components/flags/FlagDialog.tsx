import { useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import type { FlagType } from '../../../shared/schemas/flag';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';

/** What is being reported: a post, a member or a chat message (with its room). */
export interface FlagSubject {
  type: FlagType;
  id: number;
  roomId?: number;
}

const OTHER = '__other__';

/**
 * The report dialog: the forum's preset reasons (the admin's list) or the member's own words;
 * submitting sends NodeBB's POST /flags and tells the member their report went to the moderators.
 */
export default function FlagDialog({ subject, onClose }: { subject: FlagSubject; onClose: () => void }) {
  const rt = useRuntime();
  const { t } = useT();
  const id = useId();
  const reasons = rt.config.flagReasons ?? [];
  const [choice, setChoice] = useState(reasons.length ? '' : OTHER);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const reason = choice === OTHER ? text.trim() : choice;

  const submit = async () => {
    if (!reason) return;
    setBusy(true);
    try {
      await api(rt.config, 'POST', '/flags', { type: subject.type, id: subject.id, reason, ...(subject.roomId ? { roomId: subject.roomId } : {}) });
      rt.alert({ type: 'success', message: t('flags:modal-submit-success') });
      onClose();
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
      setBusy(false);
    }
  };

  return (
    <Modal show onHide={onClose} centered aria-labelledby={`${id}-title`}>
      <Modal.Header closeButton closeLabel={t('global:close')}>
        <Modal.Title as="h2" className="h5" id={`${id}-title`}>{t('flags:modal-title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <form
          id={`${id}-form`}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <fieldset>
            <legend className="small text-body-secondary mb-2">{t('flags:modal-body')}</legend>
            {reasons.map((r, i) => (
              <div className="form-check" key={r}>
                <input className="form-check-input" type="radio" name={`${id}-reason`} id={`${id}-r${i}`} value={r} checked={choice === r} onChange={() => setChoice(r)} />
                <label className="form-check-label" htmlFor={`${id}-r${i}`}>{r}</label>
              </div>
            ))}
            {reasons.length > 0 && (
              <div className="form-check">
                <input className="form-check-input" type="radio" name={`${id}-reason`} id={`${id}-other`} value={OTHER} checked={choice === OTHER} onChange={() => setChoice(OTHER)} />
                <label className="form-check-label" htmlFor={`${id}-other`}>{t('flags:modal-reason-other')}</label>
              </div>
            )}
          </fieldset>
          {choice === OTHER && (
            <>
              <label htmlFor={`${id}-text`} className="visually-hidden">{t('flags:modal-reason-custom')}</label>
              <textarea id={`${id}-text`} className="form-control mt-2" rows={3} maxLength={1000} placeholder={t('flags:modal-reason-custom')} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
            </>
          )}
        </form>
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-outline-secondary" onClick={onClose} disabled={busy}>{t('flags:modal-cancel')}</button>
        <button type="submit" form={`${id}-form`} className="btn btn-danger" disabled={busy || !reason} data-testid="flag-submit">{t('flags:modal-submit')}</button>
      </Modal.Footer>
    </Modal>
  );
}
