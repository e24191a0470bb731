import { readFileSync } from 'node:fs';

/** This tool's version, from package.json. */
export function toolVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}
