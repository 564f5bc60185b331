import Dropdown, { toggleId } from './Dropdown';
import { BOOTSWATCH_SKINS } from '../../shared/skins';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { applySkin, saveSetting } from '../app/settings';
import { useStore } from '../state/store';
import { Icon } from './Icon';

const FIXED = { strategy: 'fixed' as const };

/** Picks a Bootswatch skin; saved in the member's settings (or this browser for guests). */
export function SkinSwitcher({ drop = 'end', showLabel = false, onToggle }: { drop?: 'end' | 'up'; showLabel?: boolean; onToggle?: (open: boolean) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const { skin } = useStore(rt.ui);
  // Only the skins the admin lets members pick (none listed: every skin).
  const allowed = rt.config.allowedSkins ?? [];
  const skins = allowed.length ? BOOTSWATCH_SKINS.filter((s) => allowed.includes(s)) : BOOTSWATCH_SKINS;
  const choose = (name: string) => {
    applySkin(rt, name);
    void saveSetting(rt, 'bootswatchSkin', name);
  };
  return (
    <Dropdown drop={drop} align={drop === 'end' ? 'end' : undefined} className="nav-dropdown" onToggle={onToggle}>
      <Dropdown.Toggle as="button" type="button" id={toggleId('skins', drop)} className="btn nav-btn no-caret" aria-label={t('global:skins.title')} title={t('global:skins.title')}>
        <Icon name="palette" />
        {showLabel && <span className="nav-label">{t('global:skins.title')}</span>}
      </Dropdown.Toggle>
      {/* Fixed in the sidebar, which clips what overflows it (overflow-x: hidden), and grown upwards from its toggle at the sidebar's foot. */}
      <Dropdown.Menu className="shadow skin-menu" popperConfig={drop === 'end' ? FIXED : undefined}>
        <Dropdown.Header>{t('global:skins.title')}</Dropdown.Header>
        {['', ...skins].map((name) => (
          <Dropdown.Item as="button" type="button" key={name || 'default'} active={skin === name} aria-pressed={skin === name} onClick={() => choose(name)}>
            {name ? name.charAt(0).toUpperCase() + name.slice(1) : t('global:skins.default')}
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
