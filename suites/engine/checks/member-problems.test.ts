import { describe, expect, it } from 'vitest';
import { memberProblems } from './member-problems.ts';

describe('memberProblems', () => {
  it('calls absent only a member that is not there, and names what a present one is', () => {
    expect(
      memberProblems(
        { id: 'a', etag: null, typeId: '', self: 'https://x', n: 1.5 },
        {
          id: 'string',
          etag: 'integer',
          typeId: undefined,
          links: undefined,
          self: 'object',
          n: 'integer',
        },
      ),
    ).toEqual(['etag null', 'links absent', 'self a string (not an object)', 'n a number (not an integer)']);
    expect(memberProblems({ typeId: '' }, ['typeId'], { emptyText: true })).toEqual(['typeId empty']);
    expect(memberProblems(undefined, ['id'])).toEqual(['id absent']);
    expect(memberProblems({ id: null }, ['id', 'etag'], { nullIsPresent: true })).toEqual(['etag absent']);
  });
});
