import type { ReactNode } from 'react';
import { useRuntime } from '../app/runtime';
import { useStore } from '../state/store';
import { isActive } from '../navigation/active';

/** A main-navigation link marked active per spec §2 (path equal or parent, query matching). */
export function NavLink({ to, className = '', activeClass = 'active', children, title, ...rest }: {
  to: string;
  className?: string;
  activeClass?: string;
  children: ReactNode;
  title?: string;
  id?: string;
}) {
  const rt = useRuntime();
  const { url } = useStore(rt.page);
  const href = `${rt.config.relative_path}${to}`;
  const base = new URL(url || '/', 'http://placeholder.invalid').href;
  const active = isActive(href, base, rt.config.relative_path);
  return (
    <a href={href} className={`${className}${active ? ` ${activeClass}` : ''}`} aria-current={active ? 'page' : undefined} title={title} {...rest}>
      {children}
    </a>
  );
}
