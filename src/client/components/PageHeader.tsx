import type { ReactNode } from 'react';

/** A page heading row with optional actions on the right. */
export function PageHeader({ title, subtitle, children, icon }: { title: ReactNode; subtitle?: ReactNode; children?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="page-header d-flex flex-wrap gap-3 align-items-center mb-3">
      {icon}
      <div className="flex-grow-1 min-w-0">
        <h1 className="h3 mb-0 text-break" dir="auto">{title}</h1>
        {subtitle && <div className="text-body-secondary mt-1">{subtitle}</div>}
      </div>
      {children && <div className="d-flex gap-2 flex-wrap">{children}</div>}
    </div>
  );
}
