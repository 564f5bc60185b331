import { useCurrentPath, usePage } from '../app/hooks';
import { isAdminPath } from '../navigation/url';

/** The widgets of one area (header, sidebar, footer); never on admin pages. */
export function WidgetArea({ area, className = '' }: { area: string; className?: string }) {
  const page = usePage();
  const path = useCurrentPath();
  const widgets = page.widgets?.[area];
  if (!widgets?.length || isAdminPath(path) || page.template?.name?.startsWith('admin')) return null;
  return (
    <div className={`widget-area widget-area-${area} ${className}`} data-widget-area={area}>
      {widgets.map((w, i) => (
        // Widget HTML comes from admins through the server, sanitised there.
        <div key={i} className="widget" dangerouslySetInnerHTML={{ __html: w.html }} />
      ))}
    </div>
  );
}

/** True when the page has sidebar widgets (the layout splits into two columns then). */
export function useHasSidebarWidgets(): boolean {
  const page = usePage();
  return !!page.widgets?.sidebar?.length && !page.template?.name?.startsWith('admin');
}
