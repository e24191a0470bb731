import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REASON_CODES } from '../suites/engine/unjudged.ts';

// Code reads why a rule has no verdict from its reason code, never from the prose of its reason:
// the schema's enum and the engine's list are one set.
describe('reason codes', () => {
  it('are the report schema’s enum, in order', () => {
    const schema = JSON.parse(readFileSync(new URL('./conformance-report.schema.json', import.meta.url), 'utf8'));
    const found: string[][] = [];
    const walk = (v: unknown): void => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.reasonCode && typeof o.reasonCode === 'object') found.push((o.reasonCode as { enum: string[] }).enum);
      for (const x of Object.values(o)) walk(x);
    };
    walk(schema);
    expect(found.length).toBeGreaterThan(0);
    for (const e of found) expect(e).toEqual([...REASON_CODES]);
  });

  it('are never parsed from a reason’s words in the engine, the reporters or the certification', () => {
    const files = ['suites/engine/suite-runner.ts', 'audit/round-trip.ts', 'certification/certification-profile.ts'];
    for (const f of files) {
      const text = readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');
      expect(text, f).not.toMatch(/\.(detail|reason)\??\.(startsWith|includes|match)\(|\.test\(\w+\.(reason|detail)/);
    }
  });
});
