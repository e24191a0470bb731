import { Command, Option } from 'commander';
import { toolVersion } from './tool-version.ts';
import { THROTTLE_PROBE } from '../suites/engine/throttle-probe.ts';

/** The throttle probe's bounds, as the help states them. */
const PROBE = `bursts of ${THROTTLE_PROBE.burst} requests as principals.throttled (a client the target throttles) until one is throttled, at most ${THROTTLE_PROBE.maxRequests} requests or ${THROTTLE_PROBE.maxMs / 1000} s per service`;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Where reports go when `--report-dir` is not given (the container image sets it to /reports). */
export const REPORT_DIR_ENV = 'CONFORMANCE_REPORT_DIR';

/**
 * The `conformance` command line: every command, its options and help. Actions load their module
 * when they run, so building it costs little; `main.ts` parses `process.argv` with it, and the
 * tests parse the command lines of the deployment manifests with it.
 */
export function buildProgram(): Command {
  const program = new Command()
    .name('conformance')
    .description('Conformance suite for the Technical Token Manager, Notification and Event Management services')
    .version(toolVersion(), '-V, --version', "print the tool's version")
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `
Examples:
  $ npx conformance run --config run.json
  $ npx conformance doctor --config run.json
  $ npx conformance run --help`,
    )
    .exitOverride();

  program
    .command('run')
    .description(
      'run the suites against a deployment (default: the embedded reference deployment) and write the report',
    )
    .option('--target <url>', "base URL of the deployment (default: CONFORMANCE_TARGET, else the config's target)")
    .option(
      '--config <file>',
      'run configuration (the format `serve --write-config` writes; default: the JSON in CONFORMANCE_CONFIG)',
    )
    .option('--service <name...>', 'only these services (technical-token-manager, notification, event-management)')
    .option(
      '--rule <glob...>',
      "only rules whose ID matches one of these globs; * matches any characters, / included ('notification/*': the service's rules, '*thrott*': the throttling rules)",
    )
    .option('--seed <n>', 'seed of the generators (printed by every run)')
    .option('--runs <n>', 'runs per property', undefined)
    .addOption(
      new Option('--report-dir <dir>', 'where the reports go').env(REPORT_DIR_ENV).default('conformance-report'),
    )
    .option('--rate <n>', 'at most n requests per second to the target (0: no limit)')
    .option('--concurrency <n>', 'at most n requests in flight (default: 8)')
    .option('--timeout <duration>', 'timeout of one request (e.g. 500ms, 10s; a bare number is milliseconds)')
    .option('--max-body <bytes>', 'largest response body read from the target')
    .option('--ca <file>', 'PEM file of a private certificate authority for HTTPS targets')
    .option('--insecure', "do not verify the target's TLS certificate")
    .addOption(
      new Option(
        '--profile <name>',
        'full: every rule; read-only: only requests that change nothing; alternate: every rule against the embedded reference taking the other side of every reading',
      )
        .choices(['full', 'read-only', 'alternate'])
        .default('full'),
    )
    .option(
      '--probe-throttling',
      `meet the target's throttle to judge the 429 rules: ${PROBE} (default: on when the config has that principal, and for the embedded reference)`,
    )
    .option(
      '--no-probe-throttling',
      'send one burst as the main client instead (the 429 rules are then judged only on throttling met by chance)',
    )
    .option('--baseline <file>', 'known failures (JSON list of rule IDs): they do not fail the run; stale entries do')
    .option(
      '--compare-with <dir>',
      'a previous report (report folder, conformance-report.json or bundle): report.html shows the rules newly failed and newly passed since',
    )
    .option('--strict', 'warnings (checks resting on our reading of a sentence the documents leave open) fail the run')
    .option(
      '--shard <i/n>',
      'run the i-th of n deterministic shares of the tests (merge the reports with `conformance merge`)',
    )
    .option('--dry-run', 'list what would be exercised and the most requests it could send; send nothing')
    .option(
      '--low-memory',
      'keep the suite process small (V8 favours size over speed: peak memory about a third lower, CPU about a third higher)',
    )
    .option(
      '--cleanup-timeout <duration>',
      'most time one cleanup pass may take (e.g. 60s, 2m; a bare number is seconds)',
      '60s',
    )
    .option(
      '--job-deadline <duration>',
      'longest wait for an event-management bulk job to reach a final state (default 15s; a bare number is seconds; the documents give no bound)',
    )
    .option(
      '--max-time <duration>',
      'stop the tests after this long (e.g. 90s, 10m; a bare number is seconds), clean up, report (default: no limit)',
    )
    .addOption(
      new Option(
        '--reporter <name>',
        'what the console shows while the run runs: list (a line per test), line (a live status line and a line per failure), dot, github (annotations and the step summary), quiet (only the summary); default: github in GitHub Actions, line on a terminal, else list',
      ).choices(['list', 'line', 'dot', 'github', 'quiet']),
    )
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance run                                   # every suite against the embedded reference
  $ npx conformance run --config run.json --target https://staging.example.com --rate 20
  $ npx conformance run --config run.json --service notification --rule 'notification/recipients/*'
  $ npx conformance run --rule '*thrott*'                 # * matches across /: every throttling rule
  $ npx conformance run --config run.json --profile read-only --dry-run
  $ npx conformance run --service notification --reporter quiet

Exit codes:
  0    passed
  1    a rule failed (or an error outside the tests); wins over 4, 5 and 6
  2    bad usage or configuration, or the report folder is in use by another run
  3    target unreachable at the start (connection refused, DNS, TLS)
  4    timed out: --max-time reached before the tests ended
  5    the target stopped answering during the run
  6    a stale baseline entry (a listed rule that now passes)
  70   an error of the tool itself (a defect: please report it, with the message)
  130  interrupted (SIGINT): the partial report is written
  143  terminated (SIGTERM): the partial report is written\n`,
    )
    .action(async (opts) => {
      process.exitCode = await (await import('./run-command.ts')).runCommand(opts);
    });

  program
    .command('doctor')
    .description(
      'check a run configuration against its target without running the suites: reachable, TLS, tokens and scopes, fixtures, clock skew',
    )
    .option('--config <file>', 'the run configuration to check (default: the JSON in CONFORMANCE_CONFIG)')
    .option('--target <url>', "base URL of the deployment (default: CONFORMANCE_TARGET, else the config's target)")
    .option('--ca <file>', 'PEM file of a private certificate authority for HTTPS targets')
    .option('--insecure', "do not verify the target's TLS certificate")
    .option('--timeout <duration>', 'timeout of one request (e.g. 500ms, 10s; a bare number is milliseconds)')
    .addHelpText(
      'after',
      `
Exit codes: 0 everything ready, 1 something missing or failing (each named, with the rules it
leaves unjudged), 2 bad configuration, 3 target unreachable.

Examples:
  $ npx conformance doctor --config run.json
  $ npx conformance doctor --config run.json --target https://staging.example.com --ca corp-ca.pem
`,
    )
    .action(async (opts) => {
      process.exitCode = await (await import('./doctor-command.ts')).doctorCommand(opts);
    });

  program
    .command('certify')
    .description(
      'run the certification profile (every rule of the claimed services) and write a signed evidence bundle and its .tar.gz',
    )
    .option(
      '--config <file>',
      'run configuration of the deployment (every principal and fixture the rules need; default: the JSON in CONFORMANCE_CONFIG)',
    )
    .option('--target <url>', "base URL of the deployment (default: CONFORMANCE_TARGET, else the config's target)")
    .option('--vendor <name>', 'who makes the product')
    .option('--product <name>', 'the product certified')
    .option('--product-version <v>', 'its version')
    .option('--service <name...>', 'the services claimed (default: all three)')
    .option('--key <file>', 'private JWK to sign with (`conformance keygen`); default: a key made for this bundle')
    .option('--out <dir>', 'where the bundle goes', 'conformance-certification')
    .option('--seed <n>', 'seed of the generators')
    .option('--runs <n>', 'runs per property (at least the default, 25)')
    .option('--rate <n>', 'at most n requests per second to the target (0: no limit)')
    .option('--concurrency <n>', 'at most n requests in flight')
    .option('--timeout <duration>', 'timeout of one request (e.g. 500ms, 10s; a bare number is milliseconds)')
    .option('--ca <file>', 'PEM file of a private certificate authority for HTTPS targets')
    .option('--insecure', "do not verify the target's TLS certificate")
    .option(
      '--probe-throttling',
      `meet the target's throttle to judge the 429 rules: ${PROBE} (default: on when the config has that principal)`,
    )
    .option(
      '--no-probe-throttling',
      'send that burst as the main client (the 429 rules are then judged only on throttling met by chance)',
    )
    .addOption(new Option('--rule <glob...>').hideHelp())
    .addOption(new Option('--shard <i/n>').hideHelp())
    .addOption(new Option('--baseline <file>').hideHelp())
    .addOption(new Option('--profile <name>').hideHelp())
    .addHelpText(
      'after',
      `\nExample:
  $ npx conformance certify --config run.json --vendor "Acme Corp" --product "Acme Platform" --product-version 2.1.0 --key keys/conformance-signing-key.private.jwk\n`,
    )
    .action(async (opts) => {
      process.exitCode = await (await import('./certify-command.ts')).certifyCommand(opts);
    });

  program
    .command('verify')
    .description('check a certification bundle offline: signature, file hashes, tool and contracts, profile, verdict')
    .argument('<bundle>', 'bundle directory or .tar.gz')
    .option('--key <file>', "the signer's public JWK: the bundle must be signed with it")
    .addHelpText(
      'after',
      `\nExample:
  $ npx conformance verify conformance-certification/acme-corp-acme-platform-2.1.0.tar.gz --key keys/conformance-signing-key.public.jwk\n`,
    )
    .action(async (bundle, opts) => {
      process.exitCode = await (await import('./verify-command.ts')).verifyCommand(bundle, opts);
    });

  program
    .command('compare')
    .description(
      'what changed between two reports or bundles (Markdown); exit 1 when a MUST/SHOULD rule newly fails or is no longer judged',
    )
    .argument('<old>', 'conformance-report.json, report directory, bundle directory or .tar.gz')
    .argument('<new>', 'the same, of the newer run')
    .option('--json', 'print the comparison as JSON')
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance compare last-release/conformance-report.json conformance-report/conformance-report.json
  $ npx conformance compare old-bundle.tar.gz new-bundle.tar.gz --json\n`,
    )
    .action(async (oldPath, newPath, opts) => {
      process.exitCode = await (await import('./compare-command.ts')).compareCommand(oldPath, newPath, opts);
    });

  program
    .command('token')
    .description(
      "print a bearer token of a principal of the configuration, for a failure's curl ($CONFORMANCE_TOKEN); it is written nowhere else",
    )
    .option('--config <file>', 'the run configuration (or CONFORMANCE_CONFIG holding it)')
    .option('--target <url>', "base URL of the deployment (default: CONFORMANCE_TARGET, else the config's target)")
    .option('--principal <name>', 'full (default), noScopes, otherTenant, operator, throttled or without:SCOPE')
    .option('--space-auth-key', 'print the X-SPACE-AUTH-KEY of the principal instead ($CONFORMANCE_SPACE_AUTH_KEY)')
    .option('--ca <file>', 'PEM file of a private certificate authority for HTTPS targets')
    .option('--insecure', "do not verify the target's TLS certificate")
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance token --config run.json                      # export CONFORMANCE_TOKEN=$(…)
  $ npx conformance token --config run.json --principal noScopes
  $ npx conformance token --config run.json --space-auth-key     # export CONFORMANCE_SPACE_AUTH_KEY=$(…)\n`,
    )
    .action(async (opts) => {
      process.exitCode = await (await import('./token-command.ts')).tokenCommand(opts);
    });

  program
    .command('baseline')
    .description('print a baseline (known failures) from a report: every failed rule, for --baseline')
    .argument('<report>', 'a conformance-report.json or its folder')
    .addHelpText(
      'after',
      `\nExample:
  $ npx conformance baseline conformance-report > known-failures.json\n`,
    )
    .action(async (report: string) => {
      process.exitCode = (await import('./baseline-command.ts')).baselineCommand(report);
    });

  program
    .command('keygen')
    .description('make an Ed25519 key pair for signing bundles (private JWK, public JWK and its thumbprint)')
    .option('--out <dir>', 'where the two files go', '.')
    .option('--name <name>', 'file name stem', 'conformance-signing-key')
    .addHelpText(
      'after',
      `\nExample:
  $ npx conformance keygen --out keys/\n`,
    )
    .action(async (opts) => {
      process.exitCode = await (await import('./keygen-command.ts')).keygenCommand(opts);
    });

  program
    .command('serve')
    .description('serve the reference deployment of all three services')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0: any free port)', '4010')
    .option(
      '--allow-host <name>',
      'answer to this host name too, on any port, or NAME:PORT on that one (repeatable; default: only 127.0.0.1, localhost, [::1] and --host, on --port)',
      collect,
    )
    .option(
      '--allow-origin <origin>',
      'serve requests a page of this origin sends (repeatable; default: none from another site)',
      collect,
    )
    .option('--write-config <file>', 'write a run configuration for this deployment')
    .option(
      '--throttle <n>',
      'throttle every client at n requests per second (beyond it 429 with Retry-After); 0: none. Default: only the throttled application (the principals.throttled of --write-config), at 8 a second',
    )
    .option(
      '--visibility-delay <duration>',
      'new or changed events become visible this late (e.g. 2s; a bare number is milliseconds)',
    )
    .option(
      '--latency <duration>',
      'answer every request this much later (a far deployment, for timing runs; e.g. 100ms, a bare number is milliseconds)',
    )
    .option('--fault <id>', 'switch on a fault variant (repeatable)', collect)
    .addOption(
      new Option(
        '--profile <name>',
        'default: the reference as the suites read the documents; alternate: the other side of every reading the documents allow',
      )
        .choices(['default', 'alternate'])
        .default('default'),
    )
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance serve --port 4010 --write-config run.json
  $ npx conformance serve --port 0 --fault access-token-not-a-jwt --write-config broken.json
  $ npx conformance serve --profile alternate --write-config alternate.json
  $ npx conformance serve --host 0.0.0.0 --allow-host conformance-reference.test.svc  # in a container, reached by that name\n`,
    )
    .action(async (opts) => {
      await (await import('./serve-command.ts')).serveCommand(opts);
    });

  program
    .command('replay')
    .description('re-run the recorded failing case of a rule and say whether it still fails')
    .argument('<report>', 'a conformance-report.json')
    .argument('<rule-id>', 'the rule to replay')
    .option(
      '--target <url>',
      "the deployment to replay against (default: CONFORMANCE_TARGET, else the configuration's target; never the report's unless named here)",
    )
    .option(
      '--config <file>',
      'run configuration with the credentials (default: the JSON in CONFORMANCE_CONFIG; needed unless the report is of the embedded reference)',
    )
    .addHelpText(
      'after',
      `\nExample:
  $ npx conformance replay conformance-report/conformance-report.json event-management/events/severity-range --config run.json\n`,
    )
    .action(async (report, ruleId, opts) => {
      process.exitCode = await (await import('./replay-command.ts')).replayCommand(report, ruleId, opts);
    });

  program
    .command('merge')
    .description('merge the reports of several shards into one')
    .argument('<dir...>', 'report directories (or conformance-report.json files)')
    .addOption(
      new Option('--report-dir <dir>', 'where the merged reports go').env(REPORT_DIR_ENV).default('conformance-report'),
    )
    .option('--baseline <file>', 'known failures applied to the whole (default: the one the shards applied)')
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance merge shard-1/ shard-2/ shard-3/ --report-dir conformance-report
  $ npx conformance merge shard-*/ --baseline known-failures.json\n`,
    )
    .action(async (dirs, opts) => {
      process.exitCode = (await import('./merge-command.ts')).mergeCommand(dirs, opts);
    });

  program
    .command('audit')
    .description('judge every rule that recorded traffic can show, from HAR files alone, and write the report')
    .argument('<file...>', 'HAR files (a run writes exchanges.har; `conformance proxy` and browsers write others)')
    .option('--service <name...>', 'only these services')
    .addOption(
      new Option('--report-dir <dir>', 'where the reports go').env(REPORT_DIR_ENV).default('conformance-report'),
    )
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance audit conformance-report/exchanges.har --report-dir audit-report
  $ npx conformance audit browser-session.har --service event-management\n`,
    )
    .action(async (files, opts) => {
      process.exitCode = (await import('./audit-command.ts')).auditCommand(files, opts);
    });

  program
    .command('proxy')
    .description(
      'a reverse proxy to a deployment that records HAR and judges the traffic as it passes; the report is written on SIGINT/SIGTERM',
    )
    .requiredOption('--target <url>', 'base URL of the deployment')
    .option('--listen <port>', 'port to listen on (0: any free port)', '4020')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option(
      '--allow-host <name>',
      'answer to this host name too, on any port, or NAME:PORT on that one (repeatable; default: only 127.0.0.1, localhost, [::1] and --host, on --listen)',
      collect,
    )
    .option(
      '--allow-origin <origin>',
      'forward requests a page of this origin sends (repeatable; default: none from another site)',
      collect,
    )
    .option('--service <name...>', 'only judge these services')
    .addOption(
      new Option('--report-dir <dir>', 'where the HAR and the reports go')
        .env(REPORT_DIR_ENV)
        .default('conformance-report'),
    )
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance proxy --target https://staging.example.com --listen 4020
  $ npx conformance proxy --target http://127.0.0.1:4010 --service notification --report-dir proxy-report
  $ npx conformance proxy --target https://staging.example.com --allow-origin http://localhost:5173  # a UI in the browser\n`,
    )
    .action(async (opts) => {
      process.exitCode = await (await import('./proxy-command.ts')).proxyCommand(opts);
    });

  program
    .command('selftest')
    .description(
      'run the suites against the reference and every fault variant; print the kill matrix and the mutation score',
    )
    .option('--faults <glob...>', 'only fault variants whose ID matches')
    .option('--service <name...>', 'only variants of these services')
    .option('--parallel <n>', 'runs at a time (default: the number of cores)')
    .option('--runs <n>', 'runs per property', '10')
    .option('--seed <n>', 'seed of every run', '1')
    .option('--json', 'print the result as one JSON object')
    .option('--mutants', 'instead of the fault variants: machine-made mutants of the reference (Stryker)')
    .option('--files <glob...>', 'with --mutants: only mutants of these reference files')
    .option('--sample <n>', 'with --mutants: a deterministic sample of n mutants (by --seed)')
    .option('--out <file>', 'with --mutants: also write the result as JSON to this file')
    .option(
      '--since <file...>',
      'with --mutants: earlier --out results; mutants one of them found killed keep that verdict, only the others run',
    )
    .option(
      '--every-killer',
      'with --mutants: run every test of a mutant even after one killed it (lists every killing rule)',
    )
    .option('--keep', 'keep the work directory (generated spec files, lane results)')
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance selftest --service technical-token-manager
  $ npx conformance selftest --faults 'access-token-*' --parallel 1 --json
  $ npx conformance selftest --mutants --service notification --since before.json --out after.json\n`,
    )
    .action(async (opts) => {
      process.exitCode = opts.mutants
        ? await (await import('./mutants-command.ts')).mutantsCommand(opts)
        : await (await import('./selftest-command.ts')).selftestCommand(opts);
    });

  program
    .command('selftest-mutants-lane', { hidden: true })
    .argument('<file>')
    .action(async (file) => (await import('../selftest/mutant-lane.ts')).mutantsLaneCommand(file));

  program
    .command('selftest-lane', { hidden: true })
    .argument('<file>')
    .action(async (file) => (await import('../selftest/variant-lane.ts')).selftestLaneCommand(file));

  program
    .command('faults')
    .description('list the fault variants and the rules each must make fail')
    .option('--json', 'print them as JSON')
    .addHelpText(
      'after',
      `\nExample:
  $ npx conformance faults --json\n`,
    )
    .action(async (opts) => (await import('./selftest-command.ts')).faultsCommand(opts));

  program
    .command('coverage')
    .description(
      'list, per rule, its tests (file:line) and the fault variants that must make it fail, computed now; --write FILE keeps it as YAML',
    )
    .option('--service <name...>', 'only rules of these services')
    .option('--rule <glob...>', 'only rules whose ID matches one of these globs (* matches / too)')
    .option(
      '--uncovered',
      'only rules with a gap: a testable rule without a test, a MUST/SHOULD rule without a fault variant',
    )
    .option('--json', 'print the listing as JSON')
    .option('--write <file>', "also write the selected rules' list to this file, as YAML")
    .addHelpText(
      'after',
      `
Exit codes: 0 every selected testable rule has a test, 1 not, 2 bad usage.

Examples:
  $ npx conformance coverage --service event-management --rule 'event-management/events/*'
  $ npx conformance coverage --uncovered
  $ npx conformance coverage --rule 'notification/errors/*' --json
  $ npx conformance coverage --write coverage.yaml\n`,
    )
    .action(async (opts) => {
      process.exitCode = await (await import('./coverage-command.ts')).coverageCommand(opts);
    });

  program
    .command('explain')
    .description(
      'everything on one rule: level, quote, statement and readings; its tests and checks, basis, fault variants, reference lines and mutants',
    )
    .argument('<rule-id>', 'the rule, by its full ID')
    .option('--json', 'print it as one JSON object')
    .option(
      '--mutation-result <file...>',
      'results of `selftest --mutants --out` to read besides those stored in fixtures/mutants/results/',
    )
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance explain event-management/events/severity-range
  $ npx conformance explain notification/errors/code-invalid-parameter --json\n`,
    )
    .action(async (ruleId: string, opts) => {
      process.exitCode = await (await import('./explain-command.ts')).explainCommand(ruleId, opts);
    });

  program
    .command('rules')
    .description('list the rules catalog')
    .option('--service <name...>', 'only these services')
    .option('--level <level>', 'only rules of this level (MUST, SHOULD, MAY, UNSPECIFIED)')
    .option('--json', 'print the catalog as a JSON array (with --summary: the figures as JSON)')
    .option(
      '--summary',
      'print the figures instead: rules per level, testable, with a test and a fault variant, basis, readings, second reading, variants',
    )
    .addHelpText(
      'after',
      `\nExamples:
  $ npx conformance rules --service event-management --level MUST
  $ npx conformance rules --summary
  $ npx conformance rules --json\n`,
    )
    .action(async (opts) =>
      opts.summary
        ? (await import('./rules-summary.ts')).rulesSummaryCommand(opts)
        : (await import('./rules-command.ts')).rulesCommand(opts),
    );

  return program;
}
