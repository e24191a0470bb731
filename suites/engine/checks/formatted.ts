import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge, type Judging } from './judge.ts';

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
  soft?: Judging['soft'];
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
  return judge(t, o.rule, bad.length === 0, d, { soft: o.soft });
}
