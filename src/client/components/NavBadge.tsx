import { badgeText } from '../state/badge';

/** A count badge on a navigation button (drafts, notifications); nothing at zero (spec §3). */
export function NavBadge({ count, testId, variant = 'primary' }: { count: number; testId: string; variant?: 'primary' | 'danger' }) {
  const text = badgeText(count);
  return text ? <span className={`badge rounded-pill text-bg-${variant} nav-badge`} data-testid={testId}>{text}</span> : null;
}
