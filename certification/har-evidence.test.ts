import { describe, expect, it } from 'vitest';
import { harProblems } from './har-evidence.ts';

const entry = { request: { method: 'GET', url: 'http://x/a' }, response: { status: 200 } };
const har = (log: unknown) => Buffer.from(JSON.stringify({ log }));

describe('HAR structure', () => {
  it('accepts a HAR 1.2 log of entries', () => {
    expect(harProblems(har({ version: '1.2', entries: [entry, entry] }))).toEqual([]);
    expect(harProblems(har({ version: '1.2', entries: [] }))).toEqual([]);
  });

  it('names what is wrong', () => {
    expect(harProblems(Buffer.from('{'))[0]).toMatch(/^not JSON/);
    expect(harProblems(Buffer.from('{}'))).toEqual(['no log object']);
    expect(harProblems(har({ version: '1.1', entries: {} }))).toEqual([
      'log.version is "1.1", not "1.2"',
      'log.entries is not a list',
    ]);
    expect(harProblems(har({ version: '1.2', entries: [entry, { request: { method: 'GET' } }] }))).toEqual([
      'entry 1 has no request method and URL or no response status',
    ]);
  });
});
