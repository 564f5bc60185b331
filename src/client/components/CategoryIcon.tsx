import type { CategoryRef } from '../../shared/types';
import { Icon, iconForFa } from './Icon';

/** A category's icon: a coloured square with its icon (or first letter). */
export function CategoryIcon({ category, size = 40 }: { category: Pick<CategoryRef, 'name' | 'icon' | 'bgColor' | 'color'>; size?: number }) {
  const icon = category.icon ? iconForFa(category.icon.split(' ').find((c) => c.startsWith('fa-') && c !== 'fa-fw') ?? '') : null;
  return (
    <span
      className="category-icon"
      aria-hidden="true"
      style={{ width: size, height: size, backgroundColor: category.bgColor || '#6c757d', color: category.color || '#fff', fontSize: size * 0.45 }}
    >
      {icon ? <Icon name={icon} size={Math.round(size * 0.5)} /> : category.name.charAt(0).toUpperCase()}
    </span>
  );
}

/** A small category label: a dot in the category's colour and its name in body text (readable on any colour). */
export function CategoryBadge({ category }: { category: Pick<CategoryRef, 'name' | 'icon' | 'bgColor' | 'color'> }) {
  return (
    <span className="badge category-badge border bg-body text-body d-inline-flex align-items-center gap-1">
      <span className="category-dot" style={{ backgroundColor: category.bgColor || '#6c757d' }} aria-hidden="true" />
      <span className="category-name" dir="auto">{category.name}</span>
    </span>
  );
}
