import Modal from 'react-bootstrap/Modal';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { useStore } from '../state/store';

/** The dialog of session events (mismatch, ban, unban); a ban's dialog cannot be dismissed. */
export function SessionDialog() {
  const rt = useRuntime();
  const { t } = useT();
  const dialog = useStore(rt.dialog);
  if (!dialog) return null;
  const confirm = () => {
    rt.dialog.set(null);
    dialog.onConfirm();
  };
  return (
    <Modal show onHide={dialog.closable ? confirm : () => undefined} backdrop={dialog.closable ? true : 'static'} keyboard={dialog.closable} centered>
      <Modal.Header closeButton={dialog.closable} closeLabel={t('global:close')}>
        <Modal.Title as="h2" className="h5">{dialog.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{dialog.message}</Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-primary" onClick={confirm} autoFocus>
          {t(dialog.button)}
        </button>
      </Modal.Footer>
    </Modal>
  );
}
