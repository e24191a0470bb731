import type { TransportError } from './http-client.ts';
import type { TokenError } from './token-error.ts';

/**
 * Why a rule was left unjudged, as a stable code the report carries beside the reason:
 * - `configuration`: a fixture (or another piece of the run configuration) is missing or names
 *   nothing the target holds;
 * - `principal`: a principal is not configured, or its token cannot be obtained with what is;
 * - `transport`: the target could not be talked to (refused, reset, timed out while down);
 * - `test`: the test itself found nothing to judge (the target throttled nothing, say).
 */
export type UnjudgedCode = 'configuration' | 'principal' | 'transport' | 'test';

/**
 * Every reason code, in the order of the report schema's enum: why a rule's outcome is not a
 * verdict of the target, as code reads it (never the prose of the detail): the codes above, and
 * - `not-selected`: left out by `--rule` or `--service`;
 * - `other-shard`: its test is run by another shard;
 * - `read-only`: its test changes the target and the profile is read-only;
 * - `target-unresponsive`: the target stopped answering before the test could judge it (the run
 *   then starts no further file);
 * - `interrupted`: the run stopped (a signal, `--max-time`) before the test could judge it;
 * - `no-check`: its test ran and no check of it was reached;
 * - `reading-stop`: its test ended at a reading that did not hold, before its checks;
 * - `suite-defect`: its test stopped on a defect of the suite;
 * - `not-testable`: the catalog marks it as not testable from outside;
 * - `no-test`: no test covers it.
 */
export const REASON_CODES = [
  'configuration',
  'principal',
  'transport',
  'test',
  'not-selected',
  'other-shard',
  'read-only',
  'target-unresponsive',
  'interrupted',
  'no-check',
  'reading-stop',
  'suite-defect',
  'not-testable',
  'no-test',
] as const;

/** Why a rule's outcome is not a verdict of the target (`REASON_CODES`). */
export type ReasonCode = (typeof REASON_CODES)[number];

/**
 * A test could not judge its rules for a reason that is not the target's conformance. The rule
 * wrapper maps it to `skipped` (or `not-exercised`) with the reason and code, never to `failed`;
 * fast-check properties pass it through instead of taking it for a counterexample.
 */
export class Unjudged extends Error {
  constructor(
    readonly code: UnjudgedCode,
    readonly status: 'skipped' | 'not-exercised',
    reason: string,
    /** The configuration key it names (`principals.noScopes`, `fixtures.eventManagement.entityIds`), if any. */
    readonly key?: string,
  ) {
    super(reason);
    this.name = 'Unjudged';
  }
}

/** A fixture or other piece of the configuration the test needs is missing or wrong. */
export class ConfigurationUnavailable extends Unjudged {
  constructor(key: string, reason: string) {
    super('configuration', 'skipped', reason.startsWith(key) ? reason : `${key}: ${reason}`, key);
    this.name = 'ConfigurationUnavailable';
  }
}

/** A principal the test acts as is not configured, or the target refused its credentials. */
export class PrincipalUnavailable extends Unjudged {
  constructor(
    key: string,
    reason: string,
    /** The token endpoint's answer, when it refused the credentials. */
    readonly tokenError?: TokenError,
  ) {
    super('principal', 'skipped', reason.startsWith(key) ? reason : `${key}: ${reason}`, key);
    this.name = 'PrincipalUnavailable';
  }
}

/** The target stopped answering (refused, reset or timed out, and a probe found it down). */
export class TransportFailure extends Unjudged {
  constructor(override readonly cause: TransportError) {
    super('transport', 'not-exercised', `the target could not be talked to: ${cause.message}`);
    this.name = 'TransportFailure';
  }
}

/** The test found nothing to judge its rules by (not a configuration matter). */
export class TestSkip extends Unjudged {
  constructor(reason: string) {
    super('test', 'skipped', reason);
    this.name = 'TestSkip';
  }
}
