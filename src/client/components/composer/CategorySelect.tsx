import { useEffect, useId, useState } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { api } from '../../app/api';
import { errorText } from '../../i18n';

interface CatOption {
  cid: number;
  name: string;
  handle?: string;
  depth: number;
}

type CatNode = { cid: number; name: string; handle?: string; disabled?: number; children?: CatNode[] };

function flatten(list: CatNode[], depth = 0, out: CatOption[] = []): CatOption[] {
  for (const c of list) {
    if (c.disabled) continue;
    out.push({ cid: c.cid, name: c.name, handle: c.handle, depth });
    if (c.children?.length) flatten(c.children, depth + 1, out);
  }
  return out;
}

let cache: Promise<CatOption[]> | null = null;

/** Category picker for a new topic, from GET /api/v3/categories (name and handle). */
export function CategorySelect({ value, onChange }: { value: number; onChange: (cid: number) => void }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const id = useId();
  const [options, setOptions] = useState<CatOption[]>([]);
  useEffect(() => {
    cache ??= api<CatNode[] | { categories: CatNode[] }>(rt.config, 'GET', '/categories')
      .then((res) => flatten(Array.isArray(res) ? res : (res?.categories ?? [])))
      .catch((err: Error) => {
        cache = null;
        rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
        return [];
      });
    let live = true;
    void cache.then((list) => live && setOptions(list));
    return () => {
      live = false;
    };
  }, [rt]);
  return (
    <>
      <label htmlFor={id} className="visually-hidden">{t('modules:composer.category')}</label>
      <select id={id} className="form-select category-select" value={value || ''} onChange={(e) => onChange(Number(e.target.value))} required>
        <option value="" disabled>{t('modules:composer.select-category')}</option>
        {options.map((o) => (
          <option key={o.cid} value={o.cid}>
            {'\u00a0\u00a0'.repeat(o.depth)}
            {tx(o.name)}
          </option>
        ))}
      </select>
    </>
  );
}
