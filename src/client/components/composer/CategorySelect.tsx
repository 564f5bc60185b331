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
  /** The category's effective tag limits (its own within the forum's). */
  minTags?: number;
  maxTags?: number;
}

type CatNode = { cid: number; name: string; handle?: string; disabled?: number; minTags?: number; maxTags?: number; children?: CatNode[] };

function flatten(list: CatNode[], depth = 0, out: CatOption[] = []): CatOption[] {
  for (const c of list) {
    if (c.disabled) continue;
    out.push({ cid: c.cid, name: c.name, handle: c.handle, depth, minTags: c.minTags, maxTags: c.maxTags });
    if (c.children?.length) flatten(c.children, depth + 1, out);
  }
  return out;
}

let cache: Promise<CatOption[]> | null = null;

/** The tag limits of a category once the category list is loaded (null before, or unknown). */
export function useCategoryTagLimits(cid: number): { minTags?: number; maxTags?: number } | null {
  const [limits, setLimits] = useState<{ minTags?: number; maxTags?: number } | null>(null);
  useEffect(() => {
    let live = true;
    void cache?.then((list) => live && setLimits(list.find((o) => o.cid === cid) ?? null));
    return () => {
      live = false;
    };
  }, [cid]);
  return limits;
}

/** Category picker for a new topic, from GET /api/v3/categories?privilege=topics:create (name and handle). */
export function CategorySelect({ value, onChange }: { value: number; onChange: (cid: number) => void }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const id = useId();
  const [options, setOptions] = useState<CatOption[]>([]);
  useEffect(() => {
    // Only the categories the member may start a topic in (the server asks the guardian).
    cache ??= api<CatNode[] | { categories: CatNode[] }>(rt.config, 'GET', '/categories?privilege=topics:create')
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
          <option key={o.cid} value={o.cid} dir="auto">
            {'\u00a0\u00a0'.repeat(o.depth)}
            {tx(o.name)}
          </option>
        ))}
      </select>
    </>
  );
}
