import { zipSync, type Zippable } from 'fflate';

/** A ZIP of named files; names are made unique and kept inside the archive (no paths). */
export function zipFiles(files: { name: string; bytes: Uint8Array }[]): Uint8Array {
  const entries: Zippable = {};
  for (const f of files) {
    const base =
      f.name
        .replace(/[\\/:*?"<>|\0]/g, '_')
        .replace(/^\.+/, '_')
        .slice(0, 200) || 'file';
    let name = base;
    for (let n = 2; name in entries; n++) name = `${n}-${base}`;
    // Images and archives are compressed already: storing them saves time for nothing lost.
    entries[name] = [f.bytes, { level: /\.(png|jpe?g|gif|webp|avif|zip|gz|mp4|webm|mp3)$/i.test(name) ? 0 : 6 }];
  }
  return zipSync(entries);
}
