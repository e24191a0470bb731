import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { untarGz } from './tar-archive.ts';

/** The files of a bundle, from its directory or its `.tar.gz` (name → content, without the top folder). */
export function readBundle(path: string): Map<string, Buffer> {
  if (!existsSync(path)) throw new Error(`${path}: no such file or directory`);
  if (statSync(path).isDirectory()) {
    const files = new Map<string, Buffer>();
    for (const f of readdirSync(path).sort()) {
      const full = join(path, f);
      if (statSync(full).isFile()) files.set(f, readFileSync(full));
      else files.set(`${f}/`, Buffer.alloc(0));
    }
    return files;
  }
  let raw: Map<string, Buffer>;
  try {
    raw = untarGz(readFileSync(path));
  } catch (e) {
    throw new Error(`${path}: not a bundle directory nor a readable .tar.gz (${(e as Error).message})`, { cause: e });
  }
  const tops = new Set([...raw.keys()].map((k) => (k.includes('/') ? k.split('/')[0] : '')));
  const strip = tops.size === 1 && !tops.has('');
  const files = new Map<string, Buffer>();
  for (const [k, v] of raw) files.set(strip ? k.slice(k.indexOf('/') + 1) : k, v);
  return files;
}
