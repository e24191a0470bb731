import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';

/** What `formatted` judges: values an answer carries, and the format each must have. */
export type FormattedOptions = {
  rule: string;
  /** The values, as a failure names them (`${what} not ${format}`). */
  what: string;
  values: readonly unknown[];
  /** The format's name (`dd-MM-yyyy HH:mm:ss`) and its test. */
  format: string;
  is: (v: unknown) => boolean;
  /** High unless told. */
  severity?: Severity;
  /** Record the check and go on (`t.verify`) instead of ending the test when it fails. */
  soft?: boolean;
};

/** Every value has the format the document gives. */
export function formatted(t: RuleContext, o: FormattedOptions): boolean {
  const bad = o.values.filter((v) => !o.is(v));
  const d = {
    title: `${o.what} not ${o.format}`,
    severity: o.severity ?? 'high',
    expected: o.format,
    received: JSON.stringify(bad.slice(0, 3)),
  };
  if (o.soft) return t.verify(o.rule, bad.length === 0, d);
  t.check(o.rule, bad.length === 0, d);
  return true;
}
