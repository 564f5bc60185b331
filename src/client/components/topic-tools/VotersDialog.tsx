import { useEffect, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import type { UserSummary } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { userPath } from '../../util/urls';
import { Avatar } from '../Avatar';

/** NodeBB's GET /posts/{pid}/voters answer. */
interface Voters {
  upvoteCount: number;
  downvoteCount: number;
  showUpvotes: boolean;
  showDownvotes: boolean;
  upvoters: UserSummary[];
  downvoters: UserSummary[];
}

/** The topic's votes tool: who voted on a post, as far as the reader may see (downvoters: moderators). */
export default function VotersDialog({ pid, onClose }: { pid: number; onClose: () => void }) {
  const rt = useRuntime();
  const { t } = useT();
  const [voters, setVoters] = useState<Voters | null>(null);
  useEffect(() => {
    let live = true;
    api<Voters>(rt.config, 'GET', `/posts/${pid}/voters`)
      .then((v) => live && setVoters(v))
      .catch((err: unknown) => {
        rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
        onClose();
      });
    return () => {
      live = false;
    };
  }, [pid]);
  const list = (users: UserSummary[]) =>
    users.length ? (
      <ul className="list-unstyled d-flex flex-wrap gap-2 mb-3">
        {users.map((u) => (
          <li key={u.uid}>
            <a href={`${rt.config.relative_path}${userPath(u.userslug)}`} className="d-inline-flex align-items-center gap-1 text-reset">
              <Avatar user={u} size="xs" />
              <span dir="auto">{u.displayname}</span>
            </a>
          </li>
        ))}
      </ul>
    ) : (
      <p className="text-body-secondary">{t('topic:tools.no-votes')}</p>
    );
  return (
    <Modal show onHide={onClose} centered aria-labelledby={`voters-${pid}-title`}>
      <Modal.Header closeButton closeLabel={t('global:close')}>
        <Modal.Title as="h2" className="h5" id={`voters-${pid}-title`}>{t('topic:tools.voters-title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {!voters ? (
          <div className="spinner-border spinner-border-sm" role="status"><span className="visually-hidden">{t('global:loading')}</span></div>
        ) : (
          <>
            {voters.showUpvotes && (
              <>
                <h3 className="h6">{t('topic:tools.upvoters')} ({voters.upvoteCount})</h3>
                {list(voters.upvoters)}
              </>
            )}
            {voters.showDownvotes && (
              <>
                <h3 className="h6">{t('topic:tools.downvoters')} ({voters.downvoteCount})</h3>
                {list(voters.downvoters)}
              </>
            )}
          </>
        )}
      </Modal.Body>
    </Modal>
  );
}
