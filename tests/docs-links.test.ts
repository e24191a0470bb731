import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docText } from './readme-text.ts';
import { root } from './run-cli.ts';

// The README links its internals in docs/, and the pages link back: every relative link must
// reach a file, and every #anchor a heading of it (as GitHub makes heading anchors).

const PAGES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(page: string): string[] {
  const text = docText(page).replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]));
}

describe.each(PAGES)('links of %s', (page) => {
  const text = docText(page).replace(/```[\s\S]*?```/g, '');
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));

  it('reach a file of the repository, and a heading of it', () => {
    for (const link of links) {
      const [path, anchor] = link.split('#');
      const target = path ? normalize(join(dirname(page), path)) : page;
      expect(existsSync(join(root, target)), `${page}: ${link}`).toBe(true);
      if (anchor && target.endsWith('.md')) expect(anchorsOf(target), `${page}: ${link}`).toContain(anchor);
    }
  });
});
