import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import { loadDereferencedContract, requestLists } from '../contracts/contract.ts';
import { SERVICES } from '../contracts/services.ts';
import { suiteSites } from '../cli/rule-sites.ts';
import { itemCheckOf } from '../fixtures/faults/item-checks.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';

/**
 * The rules about the items of a list in a request (the catalog's `items`): each is tested with
 * its bad item at generated positions among valid ones (`listWithBadItems`), and the reference has
 * a fault variant whose check of the rule reads the first item only, and one the last only, that
 * the self-test must catch. The lists come from the contracts (`requestLists`): a list no rule's
 * items name is listed below with the reason none is about its items.
 */

/** Request lists whose items no rule of the catalog is about, and why. */
const LISTS_WITHOUT_ITEM_RULES: Record<string, string> = {
  'patchEventType body':
    "the document names one EventTypePatch per request; a list of them is the contract's convention (x-convention), which no rule is about",
};

/**
 * Rules about items for which a check of some items only changes no answer of the reference (a
 * later check refuses the same item), so that no variant can show it: their tests still place the
 * bad item at generated positions.
 */
const NO_ITEM_VARIANT: Record<string, string> = {
  'technical-token-manager/tokens-payload/field-types':
    'a user tenant ID that is not a string is never a provisioned tenant: condition 5 refuses it with the same 400 wherever the type check does not read it',
  'notification/recipients/address-type-int64':
    'an addresstypeid that is not an integer names no address type of the listing: address-type-from-list refuses it with the same 400 wherever the type check does not read it',
  'event-management/event-types/field-type-missing-400':
    'a field without type has none of the eight documented types: field-type-values refuses it with the same 400 wherever the check that a type is given does not read it',
  'notification/groups/member-shape':
    'a recipientId that is not an integer, or an item that is not an object with one, names no recipient of the tenant: members-same-tenant refuses it with the same 400 wherever the shape check does not read it',
};

const HELPER = 'listWithBadItems';

describe('the rules about the items of a request list', async () => {
  const rules = loadRules().filter((r) => r.status !== 'retired' && r.items?.length);
  const lists = new Map<string, string[]>();
  for (const s of SERVICES) lists.set(s, requestLists(await loadDereferencedContract(s)));

  it('are there: each names lists of its own operations that the contract holds', () => {
    expect(rules.length).toBeGreaterThan(0);
    const bad = rules.flatMap((r) =>
      (r.items ?? [])
        .filter((l) => !lists.get(r.id.split('/')[0])?.includes(l) || !r.operations.includes(l.split(' ')[0]))
        .map((l) => `${r.id}: ${l}`),
    );
    expect(bad).toEqual([]);
  });

  it('cover every list a request of the contracts carries, or the list says why none is about its items', () => {
    const named = new Set(rules.flatMap((r) => r.items ?? []));
    const all = [...lists.values()].flat();
    expect(all.filter((l) => !named.has(l) && !(l in LISTS_WITHOUT_ITEM_RULES))).toEqual([]);
    expect(Object.keys(LISTS_WITHOUT_ITEM_RULES).filter((l) => named.has(l) || !all.includes(l))).toEqual([]);
  });

  it(`are each tested with ${HELPER}, in a test that declares the rule, and it names no other rule`, () => {
    const ids = new Set(rules.map((r) => r.id));
    const { sites, tests } = suiteSites(loadRules().map((r) => r.id));
    const calls = sites.filter((s) => s.kind === 'check' && s.call === HELPER);
    // The test a call is in: the nearest declaration above it in its file.
    const declaring = (site: { file: string; line: number }) =>
      tests.filter((d) => d.file === site.file && d.line <= site.line).sort((a, b) => b.line - a.line)[0];
    const inItsTest = (c: (typeof calls)[number]) =>
      sites.some((x) => x.kind === 'test' && x.id === c.id && x.file === c.file && x.line === declaring(c)?.line);
    const fileLines = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8').split('\n');
    // A call in code, not one a comment mentions.
    const callsHelper = (text: string) => {
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      return code.includes(`${HELPER}(`) || code.includes(`${HELPER}<`);
    };
    // Or the rule is a row of a table (`emTest.each([rows], declare, fn)`): each row is a test that
    // declares the row's rule, and the table's test calls the helper with it.
    const tableCalls = (site: (typeof sites)[number]) => {
      const d = declaring(site);
      if (!d || site.kind !== 'check' || site.call !== d.call || !d.call.endsWith('.each')) return false;
      const next = tests.find((x) => x.file === d.file && x.line > d.line)?.line;
      return callsHelper(
        fileLines(d.file)
          .slice(d.line - 1, next && next - 1)
          .join('\n'),
      );
    };
    // Or the rule is a row of a named table (`const ROWS = [rows]` at the top of the file) that a
    // table of the same file runs whole (`emTest.each(ROWS, declare, fn)`, not a part of it such as
    // `ROWS.filter(…)`) and whose test calls the helper.
    const namedTableCalls = (site: (typeof sites)[number]) => {
      if (site.kind !== 'check') return false;
      const lines = fileLines(site.file);
      // The declaration the row is in: the nearest line above it that is not indented, if it is `const NAME`.
      let top = site.line - 2;
      while (top >= 0 && !/^(?!\/[/*])\S/.test(lines[top])) top--;
      const name = /^(?:export )?const (\w+)\b/.exec(lines[top] ?? '')?.[1];
      if (!name) return false;
      return tests
        .filter((d) => d.file === site.file && d.call.endsWith('.each'))
        .some((d) => {
          const next = tests.find((x) => x.file === d.file && x.line > d.line)?.line;
          const block = lines.slice(d.line - 1, next && next - 1).join('\n');
          return new RegExp(`\\.each\\(\\s*${name}\\s*,`).test(block) && callsHelper(block);
        });
    };
    const inTableRow = (id: string) => sites.some((s) => s.id === id && (tableCalls(s) || namedTableCalls(s)));
    expect([...ids].filter((id) => !calls.some((c) => c.id === id && inItsTest(c)) && !inTableRow(id))).toEqual([]);
    expect(calls.filter((c) => !ids.has(c.id)).map((c) => `${c.file}:${c.line} ${c.id}`)).toEqual([]);
  });

  it('each have a fault variant reading the first item only and one reading the last only', async () => {
    const made = (await loadFaults()).flatMap((f) => {
      const check = itemCheckOf(f.seams?.itemChecked);
      return check && f.breaks.includes(check.rule) ? [`${check.rule} ${check.reads}`] : [];
    });
    const missing = rules
      .filter((r) => r.testable !== false && !(r.id in NO_ITEM_VARIANT))
      .flatMap((r) => ['first', 'last'].map((reads) => `${r.id} ${reads}`))
      .filter((want) => !made.includes(want));
    expect(missing).toEqual([]);
    expect(Object.keys(NO_ITEM_VARIANT).filter((id) => !rules.some((r) => r.id === id))).toEqual([]);
  });
});
