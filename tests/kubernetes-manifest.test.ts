import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/program.ts';
import { root } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type: string };
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  resources?: { requests?: { memory?: string }; limits?: { memory?: string } };
  securityContext?: SecurityContext;
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
}

interface PodSpec {
  automountServiceAccountToken?: boolean;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: SecurityContext;
  containers: Container[];
  initContainers?: Container[];
  volumes?: Array<{ name: string } & Record<string, unknown>>;
}

interface Manifest {
  kind: string;
  metadata: { name: string };
  spec: {
    completionMode?: string;
    completions?: number;
    parallelism?: number;
    template: { spec: PodSpec };
  };
}

const template = readFileSync(join(root, 'deploy/kubernetes/conformance-run.yaml'), 'utf8');

/** What `envsubst '$RUN $SHARDS $SEED'` does to the manifest (the README's way to apply it). */
function render(vars: { RUN: string; SHARDS: number; SEED: number }): Manifest[] {
  const text = template.replace(/\$\{(RUN|SHARDS|SEED)\}/g, (_, k: keyof typeof vars) => String(vars[k]));
  return yaml.loadAll(text) as Manifest[];
}

/**
 * Runs a container's `sh -c` script with a stand-in `node` on PATH that records its arguments:
 * the shell expands the command line exactly as the pod's would.
 */
function commandLine(container: Container, env: Record<string, string>, nodeExit = 0): string[] {
  expect(container.command).toEqual(['sh', '-c']);
  const bin = tempDir('k8s-bin');
  const argsFile = join(bin, 'args');
  writeFileSync(join(bin, 'node'), `#!/bin/sh\nprintf '%s\\0' "$@" > "${argsFile}"\nexit ${nodeExit}\n`);
  chmodSync(join(bin, 'node'), 0o755);
  // The script writes its exit-code marker under /reports; point that at a temp folder.
  const reports = tempDir('k8s-reports');
  const script = container.args![0].replaceAll('/reports/', `${reports}/`);
  // Its status is the marker's (the stand-in writes no report folder); the test below checks that.
  spawnSync('sh', ['-c', script], { env: { PATH: `${bin}:/usr/bin:/bin`, ...env }, stdio: 'ignore' });
  const args = readFileSync(argsFile, 'utf8').split('\0').slice(0, -1);
  expect(args[0]).toBe('/opt/conformance/bin/conformance.js');
  return args.slice(1).map((a) => a.replaceAll(reports, '/reports'));
}

/** Parses a command line with the CLI's own commander program, running no command. */
function parse(args: string[]): { command: string; args: unknown[]; opts: Record<string, unknown> } {
  const program = buildProgram();
  let parsed: { command: string; args: unknown[]; opts: Record<string, unknown> } | undefined;
  for (const c of program.commands)
    c.action((...a: unknown[]) => {
      const cmd = a.at(-1) as Command;
      parsed = { command: cmd.name(), args: a.slice(0, -2), opts: cmd.opts() };
    });
  program.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  program.parse(args, { from: 'user' });
  return parsed!;
}

/** Mebibytes of a Kubernetes memory quantity (Mi, Gi). */
const mib = (q: string) => Number(q.replace(/Mi$/, '')) * (q.endsWith('Gi') ? 1024 : 1);

describe('deploy/kubernetes/conformance-run.yaml', () => {
  it.each([1, 3, 8])(
    'with N = %i: an Indexed Job whose shards cover 1..N once, and a merge of their N reports',
    (n) => {
      const docs = render({ RUN: 'r1', SHARDS: n, SEED: 42 });
      const jobs = docs.filter((d) => d.kind === 'Job');
      const shards = jobs.find((j) => j.spec.completionMode === 'Indexed')!;
      expect(shards.spec.completions).toBe(n);
      expect(shards.spec.parallelism).toBe(n);
      const [shard] = shards.spec.template.spec.containers;

      const seen: number[] = [];
      const reportDirs: string[] = [];
      for (let index = 0; index < n; index++) {
        const run = parse(commandLine(shard, { JOB_COMPLETION_INDEX: String(index) }));
        expect(run.command).toBe('run');
        const m = /^(\d+)\/(\d+)$/.exec(String(run.opts.shard));
        expect(Number(m![2])).toBe(n);
        seen.push(Number(m![1]));
        expect(run.opts.seed).toBe('42');
        reportDirs.push(String(run.opts.reportDir));
      }
      expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(new Set(reportDirs).size).toBe(n);
      for (const d of reportDirs) expect(d.startsWith('/reports/r1/')).toBe(true);

      const merge = jobs.find((j) => j !== shards)!;
      const merged = parse(commandLine(merge.spec.template.spec.containers[0], {}));
      expect(merged.command).toBe('merge');
      expect([...(merged.args[0] as string[])].sort()).toEqual([...reportDirs].sort());
      expect(merged.opts.reportDir).toBe('/reports/r1/merged');
      // Every pod mounts the one shared volume where the reports go.
      const claims = docs.filter((d) => d.kind === 'PersistentVolumeClaim').map((d) => d.metadata.name);
      expect(claims).toEqual(['conformance-reports-r1']);
    },
  );

  it('a shard whose run ended with a verdict (0 or 1) completes and marks its report; one that could not run fails', () => {
    const [shard] = render({ RUN: 'r2', SHARDS: 2, SEED: 1 })
      .find((d) => d.spec.completionMode === 'Indexed')!
      .spec.template.spec.containers.map((c) => c);
    for (const [nodeExit, podExit] of [
      [0, 0],
      [1, 0],
      [2, 2],
      [3, 3],
    ]) {
      const bin = tempDir('k8s-exit');
      const reports = tempDir('k8s-exit-reports');
      writeFileSync(join(bin, 'node'), `#!/bin/sh\nmkdir -p "${reports}/r2/shard-1"\nexit ${nodeExit}\n`);
      chmodSync(join(bin, 'node'), 0o755);
      const res = spawnSync('sh', ['-c', shard.args![0].replaceAll('/reports/', `${reports}/`)], {
        env: { PATH: `${bin}:/usr/bin:/bin`, JOB_COMPLETION_INDEX: '0' },
      });
      expect(res.status, `node exit ${nodeExit}`).toBe(podExit);
      const marker = spawnSync('cat', [join(reports, 'r2/shard-1/exit-code')], { encoding: 'utf8' });
      expect(marker.status === 0 ? marker.stdout.trim() : undefined).toBe(podExit === 0 ? String(nodeExit) : undefined);
    }
  });

  it('asks for the memory a shard was measured to need', () => {
    const [shard] = render({ RUN: 'r3', SHARDS: 3, SEED: 1 }).find((d) => d.spec.completionMode === 'Indexed')!.spec
      .template.spec.containers;
    // Measured (maxrss of the suite process, the figures in the manifest's comment): a whole run,
    // which is what one shard of one is, peaked at 614 MiB, a shard of 3 or 8 at 483 MiB.
    expect(mib(shard.resources!.limits!.memory!)).toBeGreaterThanOrEqual(614);
    expect(mib(shard.resources!.requests!.memory!)).toBeGreaterThanOrEqual(483);
    expect(mib(shard.resources!.requests!.memory!)).toBeLessThanOrEqual(mib(shard.resources!.limits!.memory!));
  });
});

/** A pod's container as the Pod Security admission sees it: its own settings over the pod's. */
interface Placed {
  pod: PodSpec;
  container: Container;
}

const effective = <K extends keyof SecurityContext>({ pod, container }: Placed, key: K): SecurityContext[K] =>
  container.securityContext?.[key] ?? pod.securityContext?.[key];

/** The volume mounted at `path`, when the container may write to it. */
function writableVolume({ pod, container }: Placed, path: string) {
  const mount = container.volumeMounts?.find((m) => m.mountPath === path && !m.readOnly);
  return pod.volumes?.find((v) => v.name === mount?.name);
}

// Pod Security Standards, "restricted" (kubernetes.io/docs/concepts/security/pod-security-standards),
// and a read-only root filesystem with the two folders a run writes to (the manifest's header).
const RESTRICTED_VOLUME_TYPES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

/** Each requirement, and a change to a conforming pod that breaks it (so its check is shown to bite). */
const REQUIREMENTS: Array<{ name: string; holds: (p: Placed) => boolean; break: (p: Placed) => void }> = [
  {
    name: 'no service-account token mounted',
    holds: ({ pod }) => pod.automountServiceAccountToken === false,
    break: ({ pod }) => delete pod.automountServiceAccountToken,
  },
  {
    name: 'runAsNonRoot, and not as uid 0',
    holds: (p) => effective(p, 'runAsNonRoot') === true && effective(p, 'runAsUser') !== 0,
    break: ({ pod }) => delete pod.securityContext!.runAsNonRoot,
  },
  {
    name: 'seccompProfile RuntimeDefault',
    holds: (p) => effective(p, 'seccompProfile')?.type === 'RuntimeDefault',
    break: ({ pod }) => delete pod.securityContext!.seccompProfile,
  },
  {
    name: 'allowPrivilegeEscalation false',
    holds: (p) => effective(p, 'allowPrivilegeEscalation') === false,
    break: ({ container }) => delete container.securityContext!.allowPrivilegeEscalation,
  },
  {
    name: 'capabilities: drop ALL, add none',
    holds: ({ container }) =>
      !!container.securityContext?.capabilities?.drop?.includes('ALL') &&
      !container.securityContext.capabilities.add?.length,
    break: ({ container }) => (container.securityContext!.capabilities = { drop: ['NET_RAW'] }),
  },
  {
    name: 'not privileged, no host namespaces',
    holds: ({ pod, container }) =>
      container.securityContext?.privileged !== true && !pod.hostNetwork && !pod.hostPID && !pod.hostIPC,
    break: ({ pod }) => (pod.hostNetwork = true),
  },
  {
    name: 'readOnlyRootFilesystem',
    holds: (p) => effective(p, 'readOnlyRootFilesystem') === true,
    break: ({ container }) => delete container.securityContext!.readOnlyRootFilesystem,
  },
  {
    name: 'a writable emptyDir at /tmp (the temp folder)',
    holds: (p) => !!writableVolume(p, '/tmp')?.emptyDir,
    break: ({ container }) => (container.volumeMounts = container.volumeMounts!.filter((m) => m.mountPath !== '/tmp')),
  },
  {
    name: "the run's claim writable at /reports",
    holds: (p) => !!writableVolume(p, '/reports')?.persistentVolumeClaim,
    break: ({ container }) => (container.volumeMounts = container.volumeMounts!.map((m) => ({ ...m, readOnly: true }))),
  },
  {
    name: 'volumes of the types the profile allows',
    holds: ({ pod }) =>
      (pod.volumes ?? []).every((v) =>
        Object.keys(v).every((k) => k === 'name' || RESTRICTED_VOLUME_TYPES.includes(k)),
      ),
    break: ({ pod }) => pod.volumes!.push({ name: 'host', hostPath: { path: '/' } }),
  },
];

/** Every container (init containers too) of every Job's pod template. */
function placedContainers(docs: Manifest[]): Array<{ where: string } & Placed> {
  return docs
    .filter((d) => d.kind === 'Job')
    .flatMap((job) => {
      const pod = job.spec.template.spec;
      return [...(pod.initContainers ?? []), ...pod.containers].map((container) => ({
        where: `${job.metadata.name}/${container.name}`,
        pod,
        container,
      }));
    });
}

describe('deploy/kubernetes/conformance-run.yaml meets the Pod Security "restricted" profile', () => {
  const placed = placedContainers(render({ RUN: 'r', SHARDS: 2, SEED: 1 }));

  it('has the three containers it runs (the shard, the merge and its wait)', () => {
    expect(placed.map((p) => p.where).sort()).toEqual([
      'conformance-merge-r/merge',
      'conformance-merge-r/wait-for-shards',
      'conformance-shards-r/shard',
    ]);
  });

  it.each(placed.flatMap((p) => REQUIREMENTS.map((r) => ({ ...p, requirement: r.name, holds: r.holds }))))(
    '$where: $requirement',
    ({ holds, pod, container }) => {
      expect(holds({ pod, container })).toBe(true);
    },
  );

  it.each(REQUIREMENTS)('the check of "$name" fails a pod without it', ({ holds, break: breakIt }) => {
    for (const p of placedContainers(render({ RUN: 'r', SHARDS: 2, SEED: 1 }))) {
      breakIt(p);
      expect(holds(p), p.where).toBe(false);
    }
  });
});
