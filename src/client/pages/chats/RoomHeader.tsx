import { useState, type FormEvent } from 'react';
import Dropdown from '../../components/Dropdown';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { renameInList } from '../../components/chats/store';
import { errorText, translate } from '../../i18n';
import { renameRoom, setNotification } from './actions';
import { roomTitle } from './messages';
import { MembersPanel, PinnedPanel, SearchPanel } from './panels';
import { NOTIFICATION_SETTINGS, type ChatsPage, type ChatUser } from './types';

type Panel = 'members' | 'pinned' | 'search' | null;

/** The room's header: back (phones), title (rename for owners), members, pinned, search, settings. */
export function RoomHeader({ data, roomId, roomName, users, isOwner, onRenamed, onUsers, onJump }: {
  data: ChatsPage;
  roomId: number;
  roomName: string;
  users: ChatUser[];
  isOwner: boolean;
  onRenamed: (name: string) => void;
  onUsers: (users: ChatUser[]) => void;
  onJump: (mid: number) => void;
}) {
  const { t } = useT();
  const rt = useRuntime();
  const uid = useUser()?.uid ?? 0;
  const [panel, setPanel] = useState<Panel>(null);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(roomName);
  const [setting, setSetting] = useState(data.notificationSetting ?? 2);
  const rp = rt.config.relative_path;
  const title = roomTitle({ roomName, users, usernames: roomName ? undefined : data.usernames }, uid);
  const others = users.filter((u) => u.uid !== uid);
  const fail = (err: unknown) => rt.alert({ type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: errorText(rt.i18n, err) });

  const rename = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await renameRoom(rt.config, roomId, name.trim());
      onRenamed(name.trim());
      renameInList(rt, roomId, name.trim());
      setRenaming(false);
    } catch (err) {
      fail(err);
    }
  };
  const choose = async (value: number) => {
    const before = setting;
    setSetting(value);
    try {
      await setNotification(rt.config, roomId, value);
    } catch (err) {
      setSetting(before);
      fail(err);
    }
  };
  return (
    <div className="chat-room-header d-flex align-items-center gap-2 px-2 px-md-3 py-2 border-bottom">
      <a href={`${rp}/chats`} className="btn btn-sm btn-link d-lg-none chat-back" aria-label={t('modules:chat.back')} data-testid="chat-back">
        <Icon name="chevron-left" />
      </a>
      {others.length === 1 && !data.public ? <Avatar user={others[0]} size="sm" /> : <Icon name={data.public ? 'comments' : 'users'} />}
      {renaming ? (
        <form className="d-flex gap-2 flex-grow-1" onSubmit={(e) => void rename(e)}>
          <input className="form-control form-control-sm" value={name} onChange={(e) => setName(e.target.value)} placeholder={t('modules:chat.rename-placeholder')} aria-label={t('modules:chat.rename-room')} maxLength={100} autoFocus data-testid="chat-rename-input" />
          <button type="submit" className="btn btn-sm btn-primary">{t('modules:chat.save')}</button>
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setRenaming(false)}>{t('modules:bootbox.cancel')}</button>
        </form>
      ) : (
        <h1 className="h6 mb-0 flex-grow-1 text-truncate chat-room-name" dir="auto" data-testid="chat-room-name">{title}</h1>
      )}
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setPanel('members')} title={t('modules:chat.view-users-list')} data-testid="chat-members-button">
        <Icon name="users" /> <span className="visually-hidden">{t('modules:chat.view-users-list')}</span> <span className="small">{users.length || data.userCount || ''}</span>
      </button>
      <button type="button" className="btn btn-sm btn-outline-secondary d-none d-sm-inline-block" onClick={() => setPanel('pinned')} title={t('modules:chat.pinned-messages')} aria-label={t('modules:chat.pinned-messages')} data-testid="chat-pinned-button">
        <Icon name="pin" />
      </button>
      <button type="button" className="btn btn-sm btn-outline-secondary d-none d-sm-inline-block" onClick={() => setPanel('search')} title={t('modules:chat.message-search')} aria-label={t('modules:chat.message-search')} data-testid="chat-search-button">
        <Icon name="search" />
      </button>
      <Dropdown align="end">
        <Dropdown.Toggle as="button" type="button" className="btn btn-sm btn-outline-secondary no-caret" aria-label={t('modules:chat.options')} title={t('modules:chat.options')} data-testid="chat-options">
          <Icon name="more" />
        </Dropdown.Toggle>
        <Dropdown.Menu className="shadow">
          <Dropdown.Item as="button" className="d-sm-none" onClick={() => setPanel('pinned')}><Icon name="pin" /> {t('modules:chat.pinned-messages')}</Dropdown.Item>
          <Dropdown.Item as="button" className="d-sm-none" onClick={() => setPanel('search')}><Icon name="search" /> {t('modules:chat.message-search')}</Dropdown.Item>
          {isOwner && (
            <Dropdown.Item as="button" onClick={() => { setName(roomName); setRenaming(true); }} data-testid="chat-rename"><Icon name="edit" /> {t('modules:chat.rename-room')}</Dropdown.Item>
          )}
          <Dropdown.Item as="button" onClick={() => setPanel('members')}><Icon name="users" /> {t(isOwner ? 'modules:chat.manage-room' : 'modules:chat.view-users-list')}</Dropdown.Item>
          <Dropdown.Divider />
          <Dropdown.Header>{t('modules:chat.notification-settings')}</Dropdown.Header>
          {NOTIFICATION_SETTINGS.map((o) => (
            <Dropdown.Item as="button" key={o.value} active={setting === o.value} onClick={() => void choose(o.value)} data-testid={`chat-notify-${o.value}`}>
              {setting === o.value ? <Icon name="check" /> : <span className="d-inline-block" style={{ width: 18 }} />} {t(o.label)}
            </Dropdown.Item>
          ))}
        </Dropdown.Menu>
      </Dropdown>
      <Offcanvas show={panel !== null} onHide={() => setPanel(null)} placement="end" className="chat-panel" aria-labelledby="chat-panel-title">
        <Offcanvas.Header closeButton closeLabel={t('modules:bootbox.cancel')}>
          <Offcanvas.Title id="chat-panel-title" as="h2" className="h5">
            {panel === 'members' && t(isOwner ? 'modules:chat.manage-room' : 'modules:chat.in-room')}
            {panel === 'pinned' && t('modules:chat.pinned-messages')}
            {panel === 'search' && t('modules:chat.message-search')}
          </Offcanvas.Title>
        </Offcanvas.Header>
        <Offcanvas.Body>
          {panel === 'members' && <MembersPanel roomId={roomId} users={users} isOwner={isOwner} onUsers={onUsers} />}
          {panel === 'pinned' && <PinnedPanel roomId={roomId} onJump={(mid) => { setPanel(null); onJump(mid); }} />}
          {panel === 'search' && <SearchPanel roomId={roomId} onJump={(mid) => { setPanel(null); onJump(mid); }} />}
        </Offcanvas.Body>
      </Offcanvas>
    </div>
  );
}
