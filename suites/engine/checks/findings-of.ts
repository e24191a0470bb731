import type { FailureDetails } from '../failure.ts';
import { RuleContext } from '../rule-test.ts';
import type { Finding } from './response-check.ts';

/**
 * A context that only collects what words judge, with no run behind it: every `check`, `verify`
 * and `reading` becomes a finding and none ends anything, so a word goes on to its next judgement
 * where a test would have stopped. The words call nothing else of a context.
 */
class FindingsCollector extends RuleContext {
  readonly found: Finding[] = [];

  constructor() {
    super(
      { context: { config: {} } } as never,
      'event-management',
      {
        rules: [],
        outcomes: {},
        service: 'event-management',
        budget: 0,
        readOnly: true,
      },
      'findings',
      { task: { name: 'findings' } } as never,
    );
  }

  private collect(rule: string, ok: boolean, d: FailureDetails, reading?: string): boolean {
    this.found.push({
      rule,
      ok,
      title: d.title,
      expected: String(d.expected),
      received: ok ? '' : String(d.received),
      severity: d.severity ?? 'high',
      ...(reading !== undefined ? { reading } : {}),
    });
    return ok;
  }

  override check(rule: string, ok: boolean, d: FailureDetails): void {
    this.collect(rule, ok, d, d.reading);
  }

  override verify(rule: string, ok: boolean, d: FailureDetails): boolean {
    return this.collect(rule, ok, d, d.reading);
  }

  override reading(readingId: string, rule: string, ok: boolean, d: FailureDetails): boolean {
    return this.collect(rule, ok, d, readingId);
  }
}

/**
 * What words of the vocabulary judged in `call`, as findings (one per check, in order): how a
 * judgement made outside a test, on a recorded exchange, is made with the words the suites use.
 */
export function findingsOf(call: (t: RuleContext) => unknown): Finding[] {
  const t = new FindingsCollector();
  call(t);
  return t.found;
}
