import { describe, expect, it } from 'vitest';
import { failureBlock, failureBlockLines, failureNotes } from './failure-block.ts';

const failure = {
  expected: 'HTTP 404',
  received: 'HTTP 200',
  curl: 'curl -sS -i -X GET "${CONFORMANCE_TARGET:?…}"\'/api/notification/v3/recipient/1002\'',
  replay: 'npx conformance replay conformance-report/conformance-report.json notification/recipients/delete-by-id',
  created: { kind: 'recipient', id: '1002' },
};

// The curl of a failure on what the run created meets it deleted by the run's cleanup: the block
// says so, and points to replay, which creates it again.
describe('the failure block', () => {
  it('notes, between the curl and the replay line, that the curl alone cannot recreate what the run created', () => {
    const parts = failureBlock(failure);
    expect(parts.map((p) => p.label)).toEqual(['Expected', 'Received', 'Reproduce with', 'Note', 'Replay']);
    expect(failureBlockLines(parts, '')).toContain(
      'Note: the request names recipient 1002, which the run created and its cleanup deletes: the curl alone cannot recreate it; the replay command does',
    );
  });

  it('has no note on a request that names nothing of the run, nor where there is no replay line to point to', () => {
    const labels = (f: Parameters<typeof failureBlock>[0]) => failureBlock(f).map((p) => p.label);
    expect(labels({ ...failure, created: undefined })).not.toContain('Note');
    expect(labels({ ...failure, replay: undefined })).not.toContain('Note');
  });

  it('says where there is no curl why, in place of the curl, and that the replay command sends the request as it was', () => {
    const noCurl = 'its body is 120034 bytes, more than a report keeps of a request: a curl would send only a part';
    const parts = failureBlock({ ...failure, curl: undefined, noCurl });
    expect(parts.map((p) => p.label)).toEqual(['Expected', 'Received', 'Note', 'Replay']);
    expect(failureBlockLines(parts, '')).toContain(
      `Note: no curl: ${noCurl}; the replay command sends the request as it was`,
    );
    // Without a replay line (a further failure of the rule), the note says only why.
    expect(failureNotes({ curl: undefined, noCurl })).toEqual([`no curl: ${noCurl}`]);
  });
});
