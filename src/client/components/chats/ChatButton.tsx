import { useState } from 'react';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText, translate } from '../../i18n';
import { Icon } from '../Icon';
import { openChat } from './dock';

/** "Chat" on a profile: opens the direct-message room with the member (the server reuses it), in a floating window on desktop widths. */
export function ChatButton({ uid }: { uid: number }) {
  const { t } = useT();
  const rt = useRuntime();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      const room = await api<{ roomId: number }>(rt.config, 'POST', '/chats', { uids: [uid] });
      openChat(rt, room.roomId);
    } catch (err) {
      rt.alert({ type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => void open()} disabled={busy} data-testid="profile-chat">
      <Icon name="chat" /> {t('modules:chat.chat-with')}
    </button>
  );
}
