import type { GroupData } from '../../../shared/schemas/group';
import { useT } from '../../app/hooks';

/** Whether a group is public, private or hidden, and a system group, as small labels. */
export function GroupKind({ group }: { group: GroupData }) {
  const { t } = useT();
  return (
    <span className="d-inline-flex gap-1 flex-wrap">
      {group.hidden ? <span className="badge text-bg-dark">{t('groups:kind.hidden')}</span> : null}
      <span className={`badge ${group.private ? 'text-bg-warning' : 'text-bg-success'}`}>{t(group.private ? 'groups:kind.private' : 'groups:kind.public')}</span>
      {group.system ? <span className="badge text-bg-secondary">{t('groups:system')}</span> : null}
    </span>
  );
}

/** A group's badge from its own fields (the list, the details page, the edit preview). */
export const badgeOf = (g: GroupData) => ({ name: g.name, slug: g.slug, userTitle: g.userTitle, icon: g.icon, labelColor: g.labelColor, textColor: g.textColor });
