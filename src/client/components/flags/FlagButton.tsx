import { lazy, Suspense, useState } from 'react';
import { useT } from '../../app/hooks';
import { Icon } from '../Icon';
import type { FlagSubject } from './FlagDialog';

// The dialog's code arrives the first time a member reports something.
const FlagDialog = lazy(() => import('./FlagDialog'));

/** The report dialog, loaded on first use (for menus that keep their own open state). */
export function LazyFlagDialog({ subject, onClose }: { subject: FlagSubject; onClose: () => void }) {
  return (
    <Suspense fallback={null}>
      <FlagDialog subject={subject} onClose={onClose} />
    </Suspense>
  );
}

/** A "Flag" button that opens the report dialog for its subject (profiles). */
export function FlagButton({ subject, label = 'flags:flag' }: { subject: FlagSubject; label?: string }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setOpen(true)} data-testid="flag-button">
        <Icon name="alert" /> {t(label)}
      </button>
      {open && <LazyFlagDialog subject={subject} onClose={() => setOpen(false)} />}
    </>
  );
}
