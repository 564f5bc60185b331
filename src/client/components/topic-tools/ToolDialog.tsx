import type { ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useT } from '../../app/hooks';

/** A topic tool's dialog: a title, its fields, Cancel and a confirm button (disabled while busy or not ready). */
export function ToolDialog({ title, children, onClose, onConfirm, confirmLabel, ready = true, busy = false, danger = false }: {
  title: string;
  children: ReactNode;
  onClose: () => void;
  onConfirm: () => void;
  confirmLabel: string;
  ready?: boolean;
  busy?: boolean;
  danger?: boolean;
}) {
  const { t } = useT();
  return (
    <Modal show onHide={onClose} centered aria-labelledby="topic-tool-title" className="topic-tool-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (ready && !busy) onConfirm();
        }}
      >
        <Modal.Header closeButton closeLabel={t('global:close')}>
          <Modal.Title as="h2" className="h5" id="topic-tool-title">{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>{t('topic:tools.cancel')}</button>
          <button type="submit" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={!ready || busy} data-testid="tool-confirm">
            {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {confirmLabel}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
