import Dropdown from './Dropdown';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { Icon } from './Icon';

/**
 * The share targets NodeBB offers (its social networks), each a plain link that opens the
 * network's own share page: nothing is requested from a third party until the reader clicks.
 */
const NETWORKS: { id: string; name: string; href: (url: string, title: string) => string }[] = [
  { id: 'facebook', name: 'Facebook', href: (u) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(u)}` },
  { id: 'twitter', name: 'X (Twitter)', href: (u, t) => `https://twitter.com/intent/tweet?text=${encodeURIComponent(t)}&url=${encodeURIComponent(u)}` },
  { id: 'linkedin', name: 'LinkedIn', href: (u) => `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(u)}` },
  { id: 'whatsapp', name: 'WhatsApp', href: (u, t) => `https://wa.me/?text=${encodeURIComponent(`${t} ${u}`)}` },
  { id: 'telegram', name: 'Telegram', href: (u, t) => `https://t.me/share/url?text=${encodeURIComponent(t)}&url=${encodeURIComponent(u)}` },
];

/**
 * The networks' links: a component of its own, so the absolute link (read from window) is made
 * only when the menu renders, in the browser once opened, never when the post card renders.
 */
function NetworkItems({ link, title }: { link: () => string; title: string }) {
  const { t } = useT();
  if (typeof window === 'undefined') return null;
  const url = link();
  return (
    <>
      {NETWORKS.map((n) => (
        <Dropdown.Item key={n.id} href={n.href(url, title)} target="_blank" rel="noopener noreferrer nofollow" data-share={n.id}>
          {t('topic:share.on', n.name)}
        </Dropdown.Item>
      ))}
    </>
  );
}

/** A post's share menu: copy its link (`/post/<pid>`, absolute), or share it on a network. */
export function ShareMenu({ pid, title }: { pid: number; title: string }) {
  const rt = useRuntime();
  const { t } = useT();
  const path = `${rt.config.relative_path}/post/${pid}`;
  // The absolute link, made in the browser when the menu is used (the server render has no window).
  const link = () => new URL(path, window.location.href).href;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link());
      rt.alert({ type: 'success', message: t('topic:share.copied'), timeout: 3000 });
    } catch {
      // No clipboard (an insecure origin, a refusal): show the link to copy by hand.
      window.prompt(t('topic:share.copy-link'), link());
    }
  };
  return (
    <Dropdown className="d-inline-block post-share">
      {/* An id of its own: a post card's markup comes from the fragment cache, rendered apart (Dropdown.tsx). */}
      <Dropdown.Toggle as="button" type="button" id={`post-share-${pid}`} className="btn btn-sm btn-link post-action" title={t('topic:share')}>
        <Icon name="link" size={16} />
        <span className="d-none d-sm-inline ms-1">{t('topic:share')}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow">
        <Dropdown.Item as="button" type="button" onClick={() => void copy()} data-testid="share-copy">
          <Icon name="link" size={14} className="me-2" />
          {t('topic:share.copy-link')}
        </Dropdown.Item>
        <Dropdown.Divider />
        <NetworkItems link={link} title={title} />
      </Dropdown.Menu>
    </Dropdown>
  );
}
