import Dropdown, { toggleId } from './Dropdown';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { useStore } from '../state/store';
import { Icon } from './Icon';
import { NavBadge } from './NavBadge';
import { Timeago } from './Timeago';
import { openDraft } from './composer/actions';

/** In the sidebar the menu is placed fixed, over the page: inside it, the sidebar's overflow would clip it (the bell's menu does the same). */
const FIXED = { strategy: 'fixed' as const };

/** Drafts kept in this browser; the count badge is hidden at zero. */
export function DraftsDropdown({ drop = 'end', showLabel = false, onToggle }: { drop?: 'end' | 'up'; showLabel?: boolean; onToggle?: (open: boolean) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const drafts = useStore(rt.drafts);
  return (
    <Dropdown drop={drop} align={drop === 'end' ? 'end' : undefined} className="nav-dropdown" onToggle={onToggle}>
      <Dropdown.Toggle as="button" type="button" id={toggleId('drafts', drop)} className="btn nav-btn no-caret position-relative" title={t('global:drafts.title')}>
        {/* Named by its content ("Drafts 1"), so the visible count is part of the name. */}
        {!showLabel && <span className="visually-hidden">{t('global:drafts.title')}</span>}
        <Icon name="drafts" />
        <NavBadge count={drafts.length} testId="drafts-count" />
        {showLabel && <span className="nav-label">{t('global:drafts.title')}</span>}
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow drafts-menu" popperConfig={drop === 'end' ? FIXED : undefined}>
        <Dropdown.Header>{t('global:drafts.title')}</Dropdown.Header>
        {drafts.length === 0 && <div className="px-3 py-2 text-body-secondary small">{t('global:drafts.none')}</div>}
        {drafts.map((d) => (
          <Dropdown.Item as="button" type="button" key={d.save_id} onClick={() => openDraft(rt, d)} className="text-wrap">
            <div className="fw-semibold text-truncate">{d.title || t(`global:drafts.${d.action}`)}</div>
            <div className="small text-body-secondary text-truncate">{d.text.slice(0, 80)}</div>
            <div className="small text-body-secondary"><Timeago ts={d.timestamp} /></div>
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
