import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { errorText } from '../../i18n';
import { createRoom } from './actions';
import type { ChatUser } from './types';
import { UserPicker } from './UserPicker';

/** Opens a room with the chosen members: one member is a direct message (their room is reused). */
export function NewChat({ show, onHide, uid }: { show: boolean; onHide: () => void; uid: number }) {
  const { t } = useT();
  const rt = useRuntime();
  const [picked, setPicked] = useState<ChatUser[]>([]);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    if (!picked.length) return;
    setBusy(true);
    setError(null);
    try {
      const room = await createRoom(rt.config, picked.map((u) => u.uid), picked.length > 1 && name.trim() ? name.trim() : undefined);
      onHide();
      setPicked([]);
      setName('');
      rt.navigate(`${rt.config.relative_path}/chats/${room.roomId}`);
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="new-chat-title" data-testid="new-chat">
      <Modal.Header closeButton closeLabel={t('modules:bootbox.cancel')}>
        <Modal.Title id="new-chat-title" as="h2" className="h5">{t('modules:chat.new-chat')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <UserPicker label={t('modules:chat.search-users')} exclude={[uid, ...picked.map((u) => u.uid)]} onPick={(u) => setPicked((p) => [...p, u])} />
        {picked.length > 0 && (
          <div className="d-flex flex-wrap gap-2 mt-3" data-testid="chat-picked">
            {picked.map((u) => (
              <span key={u.uid} className="badge rounded-pill text-bg-light border d-inline-flex align-items-center gap-1 py-1 px-2">
                <Avatar user={u} size="xs" /> {u.displayname || u.username}
                <button type="button" className="btn btn-sm btn-link p-0 ms-1" onClick={() => setPicked((p) => p.filter((x) => x.uid !== u.uid))} aria-label={`${t('modules:chat.remove')} ${u.username}`}>
                  <Icon name="x" size={14} />
                </button>
              </span>
            ))}
          </div>
        )}
        {picked.length > 1 && (
          <input className="form-control mt-3" value={name} onChange={(e) => setName(e.target.value)} placeholder={t('modules:chat.room-name-optional')} aria-label={t('modules:chat.room-name-optional')} maxLength={100} />
        )}
        {error && <div className="text-danger small mt-2" role="alert">{error}</div>}
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-outline-secondary" onClick={onHide}>{t('modules:bootbox.cancel')}</button>
        <button type="button" className="btn btn-primary" onClick={() => void create()} disabled={busy || !picked.length} data-testid="chat-create">
          {t(picked.length > 1 ? 'modules:chat.create-room' : 'modules:chat.start-chat')}
        </button>
      </Modal.Footer>
    </Modal>
  );
}
