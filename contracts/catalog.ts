import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import yaml from 'js-yaml';
import { SERVICES, type ServiceName } from './services.ts';

export const LEVELS = ['MUST', 'SHOULD', 'MAY', 'UNSPECIFIED'] as const;
export type Level = (typeof LEVELS)[number];

/** Where a rule comes from: the document, its section, and a word-for-word quote. */
export interface RuleSource {
  doc: string;
  section: string;
  quote: string;
}

/** One entry of a service's rules catalog. */
export interface Rule {
  id: string;
  level: Level;
  source: RuleSource;
  statement: string;
  operations: string[];
  /**
   * False for a rule no black-box client can provoke on demand (a 500, a concurrent
   * deletion race, a 2-hour retention); such a rule is reported as skipped with `reason`.
   */
  testable?: boolean;
  /** Why a rule is not testable, or, for UNSPECIFIED rules, what the document leaves open. */
  note?: string;
  status?: 'active' | 'retired';
  /**
   * True for a rule that recorded traffic alone can judge (`conformance audit`, `conformance
   * proxy`): a passive check in `audit/passive-checks.ts` judges it.
   */
  passive?: boolean;
  /**
   * Where a check of the rule rests on our reading of a silent, ambiguous or contradictory sentence:
   * a short ID (what the check names) and our reading in one sentence. A reading that does not hold
   * gives the rule `warning`, never `failed` (unless `--strict`).
   */
  readings?: Reading[];
  /**
   * The request lists whose every item the rule is about, as `<operationId> <where>` (a list
   * `requestLists` of `contract.ts` finds, e.g. `getOauthTokens body.userTenantIds`): its test
   * puts the bad item at generated positions among valid ones (`listWithBadItems`), so that a
   * check of some items only fails it.
   */
  items?: string[];
  /**
   * What settles the verdict of the rule's checks, where the quote alone does not say it: which
   * part the sentence settles, which part rests on a reading, what is only observed.
   */
  basisNote?: string;
  /** An outside reader's verdict on the rule's `document` checks, and our decisions on what it found open. */
  secondReading?: SecondReading;
}

/** What settles a rule's verdict, from its level and readings (see {@link basisOf}). */
export const BASES = ['document', 'reading', 'observed'] as const;
export type Basis = (typeof BASES)[number];

/**
 * A second reading of a rule's `document` checks (docs/second-reading.md): a reader who had only the
 * documents and the check's sentence, statement and assertion wrote the strongest other reading a
 * vendor could take and a verdict; each `open` and `partly` item was then decided part by part.
 */
export interface SecondReading {
  /** The reader's verdict: the words rule the other reading out, or most of the check does, or not. */
  verdict?: 'settled' | 'partly' | 'open';
  /** The strongest other reading a vendor could reasonably take, in the reader's words. */
  otherReading?: string;
  /** Why, in the reader's words, quoting the document. */
  because?: string;
  decisions?: SecondReadingDecision[];
}

/** Our decision on one part of the check the reader found open. */
export interface SecondReadingDecision {
  /** The verdict the part was decided on, when not the reader's (`looked again`: a later pass). */
  verdict?: 'partly' | 'open' | 'looked again';
  part: string;
  decision: 'moved to a reading' | 'test data changed' | 'timing-robust rewrite' | 'stays document';
  why: string;
}

/** One reading of a rule's sentence that the document does not settle. */
export interface Reading {
  id: string;
  reading: string;
}

export interface ServiceCatalog {
  service: ServiceName;
  document: string;
  version: string;
  rules: Rule[];
}

const here = dirname(fileURLToPath(import.meta.url));

/** Absolute path of a file inside `contracts/`. */
export function contractPath(...parts: string[]): string {
  return join(here, ...parts);
}

const cache = new Map<ServiceName, ServiceCatalog>();

/** Loads one service's rules catalog (`contracts/<service>/rules.yaml`). */
export function loadServiceCatalog(service: ServiceName): ServiceCatalog {
  const hit = cache.get(service);
  if (hit) return hit;
  const raw = yaml.load(readFileSync(contractPath(service, 'rules.yaml'), 'utf8')) as ServiceCatalog;
  raw.rules = (raw.rules ?? []).map((r) => ({ testable: true, status: 'active', ...r }));
  cache.set(service, raw);
  return raw;
}

/** All rules of the given services (all three by default), in catalog order. */
export function loadRules(services: readonly ServiceName[] = SERVICES): Rule[] {
  return services.flatMap((s) => loadServiceCatalog(s).rules);
}

/**
 * What settles the verdict of a rule's checks: `reading` when some check rests on a reading listed
 * with the rule (it gives a warning, never `failed`), `observed` for an UNSPECIFIED rule (what the
 * deployment does is recorded), else `document` (the quoted sentence settles every check). Computed
 * from the entry, never stored beside it.
 */
export function basisOf(rule: Pick<Rule, 'level' | 'readings'>): Basis {
  if (rule.readings?.length) return 'reading';
  return rule.level === 'UNSPECIFIED' ? 'observed' : 'document';
}

/** The service a rule ID belongs to (its first path segment). */
export function serviceOfRule(id: string): ServiceName {
  return id.split('/')[0] as ServiceName;
}

/** Reads a source document verbatim. */
export function readSourceDocument(file: string): string {
  return readFileSync(contractPath('sources', file), 'utf8');
}

/** Normalises text for quote matching: Markdown backticks and runs of whitespace do not count. */
export function normaliseForQuote(text: string): string {
  return text.replace(/`/g, '').replace(/\s+/g, ' ').trim();
}
