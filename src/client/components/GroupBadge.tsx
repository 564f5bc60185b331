import type { GroupBadge as Badge } from '../../shared/schemas/group';
import { useRuntime } from '../app/runtime';
import { Icon, iconForFa } from './Icon';

/** A group's badge (its label, icon and colours), linking to the group. */
export function GroupBadge({ group, className }: { group: Badge; className?: string }) {
  const rp = useRuntime().config.relative_path;
  const icon = group.icon ? iconForFa(group.icon) : null;
  return (
    <a
      href={`${rp}/groups/${encodeURIComponent(group.slug)}`}
      className={`badge group-badge rounded-1 text-decoration-none d-inline-flex align-items-center gap-1${className ? ` ${className}` : ''}`}
      style={{ backgroundColor: group.labelColor, color: group.textColor }}
      title={group.name}
      data-group-badge={group.slug}
    >
      {icon && <Icon name={icon} size={12} />}
      <span>{group.userTitle}</span>
    </a>
  );
}

/** The badges a member shows, in their order. */
export function GroupBadges({ groups }: { groups?: Badge[] }) {
  if (!groups?.length) return null;
  return (
    <span className="group-badges d-inline-flex flex-wrap gap-1">
      {groups.map((g) => (
        <GroupBadge key={g.slug} group={g} />
      ))}
    </span>
  );
}
