import { describe, expect, it } from 'vitest';
import { jobProgressed, type JobProgressedOptions } from './job-progressed.ts';
import { checkContext } from './check-test-context.ts';

const RULE = 'event-management/jobs/initial-state-accepted';
const FINAL_RULE = 'event-management/jobs/final-state-kept';
const DETAILS_RULE = 'event-management/jobs/details-in-final-states';
const STATES = ['ACCEPTED', 'IN_PROGRESS', 'FINISHED', 'FINISHED_WITH_ERROR'];
const FINAL = ['FINISHED', 'FINISHED_WITH_ERROR'];

type Read = Pick<JobProgressedOptions, 'before' | 'job'>;

/** The outcome of each rule after one read (undefined: not judged), and the move it returned. */
function read(r: Read) {
  const { t, meta } = checkContext([RULE, FINAL_RULE, DETAILS_RULE]);
  const o = {
    rule: RULE,
    finalRule: FINAL_RULE,
    detailsRule: DETAILS_RULE,
    what: 'a job',
    states: STATES,
    final: FINAL,
  };
  let move;
  try {
    move = jobProgressed(t, { ...o, ...r });
  } catch {
    // A failed check ends the test.
  }
  const status = (rule: string) => meta.outcomes[rule]?.status;
  return { state: status(RULE), kept: status(FINAL_RULE), details: status(DETAILS_RULE), move };
}

describe('jobProgressed', () => {
  it.each<[string, Read, string | undefined, string | undefined, string | undefined]>([
    ['a first read of the first state', { before: [], job: { state: 'ACCEPTED' } }, 'passed', undefined, undefined],
    ['a first read of a later state', { before: [], job: { state: 'IN_PROGRESS' } }, 'failed', undefined, undefined],
    [
      'a documented state later',
      { before: ['ACCEPTED'], job: { state: 'IN_PROGRESS' } },
      'passed',
      undefined,
      undefined,
    ],
    [
      'a state outside the documented',
      { before: ['ACCEPTED'], job: { state: 'DONE' } },
      'failed',
      undefined,
      undefined,
    ],
    [
      'a final state with details',
      { before: ['ACCEPTED'], job: { state: 'FINISHED', details: {} } },
      'passed',
      undefined,
      'passed',
    ],
    [
      'a final state without details',
      { before: ['ACCEPTED'], job: { state: 'FINISHED', details: null } },
      'passed',
      undefined,
      'failed',
    ],
    [
      'a final state kept',
      { before: ['ACCEPTED', 'FINISHED'], job: { state: 'FINISHED', details: {} } },
      'passed',
      'passed',
      'passed',
    ],
    [
      'a final state left',
      { before: ['ACCEPTED', 'FINISHED'], job: { state: 'IN_PROGRESS' } },
      'passed',
      'failed',
      undefined,
    ],
  ])('%s', (_, r, state, kept, details) => {
    expect(read(r)).toMatchObject({ state, kept, details });
  });

  it('judges no state order without its rule (recorded traffic does not show the first read)', () => {
    const { t, meta } = checkContext([FINAL_RULE, DETAILS_RULE]);
    const o = { finalRule: FINAL_RULE, detailsRule: DETAILS_RULE, what: 'a job', states: FINAL, final: FINAL };
    jobProgressed(t, { ...o, before: [], job: { state: 'FINISHED', details: {} } });
    expect(Object.keys(meta.outcomes)).toEqual([DETAILS_RULE]);
  });

  it('tells how the read moved: backwards, out of a final state, details early, ended', () => {
    expect(read({ before: ['ACCEPTED', 'IN_PROGRESS'], job: { state: 'ACCEPTED', details: {} } }).move).toEqual({
      from: 'IN_PROGRESS',
      to: 'ACCEPTED',
      backwards: true,
      leftFinal: false,
      detailsEarly: true,
      ended: false,
    });
    expect(read({ before: [], job: { state: 'ACCEPTED' } }).move).toMatchObject({ from: undefined, backwards: false });
    expect(read({ before: ['FINISHED'], job: { state: 'FINISHED', details: {} } }).move).toMatchObject({ ended: true });
  });
});
