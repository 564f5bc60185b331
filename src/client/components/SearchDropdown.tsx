import { useId, useState, type FormEvent } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { Icon } from './Icon';

/** The search box in a dropdown; submitting opens the search page. */
export function SearchDropdown({ drop = 'end', showLabel = false, onToggle }: { drop?: 'end' | 'up'; showLabel?: boolean; onToggle?: (open: boolean) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const id = useId();
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!term.trim()) return;
    setOpen(false);
    rt.navigate(`${rt.config.relative_path}/search?term=${encodeURIComponent(term.trim())}&in=titlesposts`);
  };
  return (
    <Dropdown drop={drop} show={open} onToggle={(next) => { setOpen(next); onToggle?.(next); }} className="nav-dropdown">
      <Dropdown.Toggle as="button" type="button" className="btn nav-btn no-caret" aria-label={t('global:search')} title={t('global:search')}>
        <Icon name="search" />
        {showLabel && <span className="nav-label">{t('global:search')}</span>}
      </Dropdown.Toggle>
      <Dropdown.Menu className="p-2 shadow search-menu">
        <form role="search" onSubmit={submit} className="d-flex gap-2">
          <label htmlFor={id} className="visually-hidden">{t('global:search')}</label>
          <input id={id} type="search" className="form-control" placeholder={t('global:search')} value={term} onChange={(e) => setTerm(e.target.value)} autoFocus />
          <button type="submit" className="btn btn-primary" aria-label={t('global:search')}>
            <Icon name="search" size={16} />
          </button>
        </form>
      </Dropdown.Menu>
    </Dropdown>
  );
}
