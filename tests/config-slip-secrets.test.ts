import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_ENV, loadRunConfig } from '../cli/config-source.ts';
import { buildReport } from '../reporters/conformance-report.ts';
import { loadRules } from '../contracts/catalog.ts';
import { ConfigError } from '../suites/engine/config-error.ts';
import { runCli, type CliResult } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// A secret pasted where a key belongs, a secret in a value of the wrong type, a file that is not
// quite JSON around a secret: the message that refuses the configuration names where and what,
// and holds no part of the secret, whatever command reads the configuration and however it is
// handed over (`--config FILE`, CONFORMANCE_CONFIG).

const SECRET = `Qz${randomBytes(18).toString('base64url')}`;

/** Every 6 characters in a row of the secret: a message may hold none of them. */
function secretParts(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 6 <= SECRET.length; i++)
    if (text.includes(SECRET.slice(i, i + 6))) found.push(SECRET.slice(i, i + 6));
  return found;
}

const creds = { clientId: 'c', clientSecret: 's', appName: 'a', appVersion: '1', hostTenant: 'h' };
const target = 'https://staging.example.com';
const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One slip: the configuration's text, and what the message must name (the place, the position). */
interface Slip {
  what: string;
  text: string;
  names: RegExp;
  /** The slip is in the target: `--target` replaces it, and the configuration is right. */
  inTarget?: boolean;
}

/** `line L, column C` of where `marker` starts in `text` (1-based, as the messages count). */
function at(text: string, marker: string, offset = 0): string {
  const i = text.indexOf(marker) + offset;
  const before = text.slice(0, i);
  return `line ${before.split('\n').length}, column ${i - before.lastIndexOf('\n')}`;
}

const trailingComma = `{\n  "target": "${target}",\n  "tokenManager": { "clientSecret": "${SECRET}", }\n}`;
const unclosed = `{"target": "${target}", "tokenManager": {"clientSecret": "${SECRET}`;
const unquoted = `{"target": "${target}",\n"tokenManager": {"clientSecret": ${SECRET}}}`;

const SLIPS: Slip[] = [
  {
    what: 'a secret as a key at the top level',
    text: json({ target, tokenManager: creds, [SECRET]: true }),
    names: new RegExp(
      `\\(top level\\): an unknown key of ${SECRET.length} characters \\(the keys are target, tokenManager,`,
    ),
  },
  {
    what: 'a secret as a key of tokenManager',
    text: json({ target, tokenManager: { ...creds, [SECRET]: 'x' } }),
    names: new RegExp(`tokenManager: an unknown key of ${SECRET.length} characters`),
  },
  {
    what: 'a secret as a key of principals.full, holding an object',
    text: json({ target, principals: { full: { [SECRET]: { clientSecret: 'x' } } } }),
    names: new RegExp(
      `principals\\.full: an unknown key of ${SECRET.length} characters .*principals\\.full: must be an object with clientId`,
    ),
  },
  {
    what: 'a secret as a scope of principals.withoutScope, holding a string',
    text: json({ target, tokenManager: creds, principals: { withoutScope: { [SECRET]: 'x' } } }),
    names: new RegExp(
      `principals\\.withoutScope\\[an unknown key of ${SECRET.length} characters\\]: must be an object`,
    ),
  },
  {
    what: 'a secret where an object belongs',
    text: json({ target, tokenManager: SECRET }),
    names: /tokenManager: must be an object keyed clientId, clientSecret/,
  },
  {
    what: 'a secret in a list of the wrong type',
    text: json({ target, tokenManager: { ...creds, clientSecret: [SECRET] } }),
    names: /tokenManager\.clientSecret: must be a string/,
  },
  {
    what: 'a secret where the target belongs',
    inTarget: true,
    text: json({ target: SECRET, tokenManager: creds }),
    names: /target: must match pattern/,
  },
  {
    what: 'a secret as the password of the target URL',
    inTarget: true,
    text: json({ target: `https://user:${SECRET}@staging.example.com`, tokenManager: creds }),
    names: /target https:\/\/staging\.example\.com carries a user name or password/,
  },
  {
    what: 'a secret in the query of the target URL',
    inTarget: true,
    text: json({ target: `https://staging.example.com/?key=${SECRET}`, tokenManager: creds }),
    names: /target https:\/\/staging\.example\.com\/ has a query: give the host root/,
  },
  {
    what: 'single quotes around a secret',
    text: `{'${SECRET}': 'x', 'target': '${target}'}`,
    names: /line 1, column 2: expected a property name in double quotes/,
  },
  {
    what: 'a trailing comma after a secret',
    text: trailingComma,
    names: new RegExp(`${at(trailingComma, ', }', 2)}: expected a property name in double quotes`),
  },
  {
    what: 'a secret without its closing quote',
    text: unclosed,
    names: new RegExp(`${at(unclosed, SECRET, SECRET.length)}: expected a closing double quote \\(the text ends\\)`),
  },
  {
    what: 'a secret without quotes',
    text: unquoted,
    names: new RegExp(`${at(unquoted, SECRET)}: expected a value`),
  },
];

const dir = tempDir('config-slip-secrets');
const fileOf = (i: number, text: string) => {
  const file = join(dir, `slip-${i}.json`);
  writeFileSync(file, text);
  return file;
};

/** The message a slip is refused with, through one way of handing the configuration over. */
function refusal(load: () => unknown): string {
  try {
    load();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('a configuration slip is refused naming where and what, never the secret', () => {
  describe.each(SLIPS.map((s, i) => ({ ...s, i })))('$what', ({ text, names, inTarget, i }) => {
    it.each([
      ['--config FILE', () => loadRunConfig(fileOf(i, text), {})],
      [CONFIG_ENV, () => loadRunConfig(undefined, { [CONFIG_ENV]: text })],
      ['--config FILE --target', () => loadRunConfig(fileOf(i, text), {}, 'https://other.example.com')],
      [`${CONFIG_ENV} --target`, () => loadRunConfig(undefined, { [CONFIG_ENV]: text }, 'https://other.example.com')],
    ] as const)('through %s', (how, load) => {
      // --target replaces a slipped target: the rest of the configuration is then right.
      if (how.endsWith('--target') && inTarget) {
        expect(() => load()).not.toThrow();
        return;
      }
      const message = refusal(load);
      expect(message).not.toContain('\n');
      expect(message).toMatch(names);
      expect(secretParts(message)).toEqual([]);
    });
  });

  it('a --target with a password is refused without it', () => {
    const file = fileOf(100, json({ target, tokenManager: creds }));
    const message = refusal(() => loadRunConfig(file, {}, `https://u:${SECRET}@other.example.com`));
    expect(message).toMatch(/with --target: target https:\/\/other\.example\.com carries a user name or password/);
    expect(secretParts(message)).toEqual([]);
  });

  it('the configuration itself given to --config (`--config "$CONFORMANCE_CONFIG"`) is not shown', () => {
    const message = refusal(() => loadRunConfig(SLIPS[1].text, {}));
    expect(message).toMatch(/looks like JSON text: --config takes a file name/);
    expect(secretParts(message)).toEqual([]);
  });
});

/** A report of the embedded reference, for `replay` (which reads the configuration after it). */
function embeddedReport(): string {
  const rule = loadRules(['technical-token-manager'])[0];
  const report = buildReport([rule], [], {
    services: ['technical-token-manager'],
    interrupted: false,
    reportFile: 'conformance-report.json',
    toolVersion: '0',
    target: 'http://127.0.0.1:1',
    embedded: true,
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(1).toISOString(),
    seed: 1,
    options: {},
    errors: [],
  });
  const file = join(dir, 'report.json');
  writeFileSync(file, JSON.stringify(report));
  return file;
}

describe('every command that reads a configuration refuses a slip with exit 2, one line, no secret', () => {
  // The slip of the issue: a secret pasted where a principal's key belongs.
  const slip = SLIPS[2];
  const file = fileOf(200, slip.text);
  const report = embeddedReport();
  const out = join(dir, 'out');
  const commands: Record<string, string[]> = {
    run: ['run', '--report-dir', out],
    doctor: ['doctor'],
    token: ['token'],
    certify: ['certify', '--vendor', 'V', '--product', 'P', '--product-version', '1', '--out', out],
    replay: ['replay', report, loadRules(['technical-token-manager'])[0].id],
  };
  const invocations: Array<{ name: string; args: string[]; env?: Record<string, string>; names: RegExp }> = [
    ...Object.entries(commands).flatMap(([name, args]) => [
      { name: `${name} --config FILE`, args: [...args, '--config', file], names: slip.names },
      { name: `${name} with ${CONFIG_ENV}`, args, env: { [CONFIG_ENV]: slip.text }, names: slip.names },
    ]),
    {
      name: 'run --config FILE, single-quoted',
      args: ['run', '--config', fileOf(201, SLIPS[9].text)],
      names: SLIPS[9].names,
    },
    {
      name: `doctor with ${CONFIG_ENV}, a trailing comma`,
      args: ['doctor'],
      env: { [CONFIG_ENV]: SLIPS[10].text },
      names: SLIPS[10].names,
    },
    {
      name: 'doctor --target with a password',
      args: [
        'doctor',
        '--config',
        fileOf(202, json({ target, tokenManager: creds })),
        '--target',
        `https://u:${SECRET}@h.example.com`,
      ],
      names: /carries a user name or password/,
    },
  ];

  it(`${invocations.length} invocations`, async () => {
    const results: Array<{ name: string; names: RegExp; res: CliResult }> = [];
    // A few at a time: each is a Node process of its own.
    for (let i = 0; i < invocations.length; i += 4)
      results.push(
        ...(await Promise.all(
          invocations.slice(i, i + 4).map(async (v) => ({
            name: v.name,
            names: v.names,
            res: await runCli(v.args, { env: { [CONFIG_ENV]: '', ...v.env }, timeoutMs: 60_000 }),
          })),
        )),
      );
    const wrong = results.flatMap(({ name, names, res }) => {
      const printed = res.stdout + res.stderr;
      const problems = [
        res.code !== 2 && `exit ${res.code}`,
        !names.test(res.stderr) && 'the place not named',
        res.stderr.trim().split('\n').length !== 1 && 'not one line',
        secretParts(printed).length && `the secret printed (${secretParts(printed).length} parts)`,
      ].filter(Boolean);
      return problems.length ? [`${name}: ${problems.join(', ')}\n${printed.slice(0, 400)}`] : [];
    });
    expect(wrong).toEqual([]);
  }, 120_000);
});
