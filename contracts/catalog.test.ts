import { describe, expect, it } from 'vitest';
import { LEVELS, loadServiceCatalog, normaliseForQuote, readSourceDocument } from './catalog.ts';
import { listOperations, loadContract } from './contract.ts';
import { SERVICES, SERVICE_INFO } from './services.ts';

const MINIMUM_RULES = { 'technical-token-manager': 25, notification: 70, 'event-management': 110 } as const;

describe('rules catalog', () => {
  it('has no duplicate rule ID across the three services', () => {
    const seen = new Map<string, number>();
    for (const s of SERVICES) for (const r of loadServiceCatalog(s).rules) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
    const dupes = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    expect(dupes).toEqual([]);
  });

  for (const service of SERVICES) {
    describe(service, () => {
      const catalog = loadServiceCatalog(service);
      const doc = normaliseForQuote(readSourceDocument(SERVICE_INFO[service].document));

      it('names its service, document and interface version', () => {
        expect(catalog.service).toBe(service);
        expect(catalog.document).toBe(SERVICE_INFO[service].document);
        expect(catalog.version).toBe(SERVICE_INFO[service].version);
      });

      it(`holds at least ${MINIMUM_RULES[service]} rules`, () => {
        expect(catalog.rules.length).toBeGreaterThanOrEqual(MINIMUM_RULES[service]);
      });

      it('gives every rule a path-like ID of its own service', () => {
        const bad = catalog.rules.filter((r) => !new RegExp(`^${service}/[a-z0-9-]+/[a-z0-9-]+$`).test(r.id));
        expect(bad.map((r) => r.id)).toEqual([]);
      });

      it('uses only known levels', () => {
        const bad = catalog.rules.filter((r) => !(LEVELS as readonly string[]).includes(r.level));
        expect(bad.map((r) => `${r.id}: ${r.level}`)).toEqual([]);
      });

      it('quotes every rule word for word from its source document', () => {
        const bad = catalog.rules.filter(
          (r) =>
            r.source?.doc !== SERVICE_INFO[service].document ||
            !r.source.section ||
            !r.source.quote ||
            !doc.includes(normaliseForQuote(r.source.quote)),
        );
        expect(bad.map((r) => `${r.id}: "${r.source?.quote}"`)).toEqual([]);
      });

      it('states every rule and explains every UNSPECIFIED or untestable one', () => {
        const bad = catalog.rules.filter(
          (r) =>
            !r.statement?.trim() ||
            !Array.isArray(r.operations) ||
            ((r.level === 'UNSPECIFIED' || r.testable === false) && !r.note?.trim()),
        );
        expect(bad.map((r) => r.id)).toEqual([]);
      });

      it('names every reading of a rule once, with a short ID and one sentence', () => {
        const bad = catalog.rules.flatMap((r) =>
          (r.readings ?? [])
            .filter(
              (x, i, all) =>
                !/^[a-z0-9-]+$/.test(x.id ?? '') || !x.reading?.trim() || all.findIndex((y) => y.id === x.id) !== i,
            )
            .map((x) => `${r.id}#${x.id}`),
        );
        expect(bad).toEqual([]);
      });

      it("keeps each second reading in the reader's words, and each decision on it part by part", () => {
        const VERDICTS = ['settled', 'partly', 'open'];
        const DECISIONS = ['moved to a reading', 'test data changed', 'timing-robust rewrite', 'stays document'];
        const text = (x: unknown) => typeof x === 'string' && x.trim().length > 0;
        const bad = catalog.rules.flatMap((r) => {
          const sr = r.secondReading;
          const wrong: string[] = [];
          if (r.basisNote !== undefined && !text(r.basisNote)) wrong.push('basisNote');
          if (!sr) return wrong.map((w) => `${r.id}: ${w}`);
          if (
            sr.verdict !== undefined &&
            (!VERDICTS.includes(sr.verdict) || !text(sr.otherReading) || !text(sr.because))
          )
            wrong.push('verdict without the other reading and its because');
          if (sr.verdict === undefined && !sr.decisions?.length) wrong.push('neither a verdict nor a decision');
          for (const d of sr.decisions ?? [])
            if (
              !text(d.part) ||
              !text(d.why) ||
              !DECISIONS.includes(d.decision) ||
              (d.verdict ?? sr.verdict) === undefined ||
              (d.verdict !== undefined && ![...VERDICTS, 'looked again'].includes(d.verdict))
            )
              wrong.push(`decision on "${d.part}"`);
          return wrong.map((w) => `${r.id}: ${w}`);
        });
        expect(bad).toEqual([]);
      });

      it('records every "not shown" of the document as an UNSPECIFIED rule', () => {
        const raw = readSourceDocument(SERVICE_INFO[service].document);
        const lines = raw
          .split('\n')
          .filter((l) => /not shown/.test(l))
          .map(normaliseForQuote);
        const unspecifiedQuotes = catalog.rules
          .filter((r) => r.level === 'UNSPECIFIED')
          .map((r) => normaliseForQuote(r.source.quote));
        const missing = lines.filter(
          (line) => !unspecifiedQuotes.some((q) => q.includes('not shown') && line.includes(q)),
        );
        expect(missing).toEqual([]);
      });

      it('mentions every operation of the contract, and only operations the contract has', async () => {
        const ops = new Set(listOperations(await loadContract(service)).map((o) => o.operationId));
        const mentioned = new Set(catalog.rules.flatMap((r) => r.operations).filter((o) => o !== '*'));
        expect([...ops].filter((o) => !mentioned.has(o))).toEqual([]);
        expect([...mentioned].filter((o) => !ops.has(o))).toEqual([]);
      });
    });
  }
});
