import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Podman as this machine runs it (root, no Docker engine): the vfs storage driver and Debian's
 * runc, since crun fails on this kernel's cgroup mode.
 */
export const PODMAN = ['podman', '--storage-driver', 'vfs', '--runtime', 'runc'];

/** The default limits cannot be raised here, so a container asks for these. */
export const RUN_LIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=4096:4096'];

/** Programs the Containerfile's RUN steps use besides node and npm. */
const TOOLS = ['sh', 'env', 'mkdir', 'chown', 'rm', 'ln', 'cat', 'ls'];

/** The shared libraries `ldd` names for a binary (the loader included). */
function sharedLibraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(\/\S+\.so[^\s]*)/g)].map((m) => m[1]);
}

function copyInto(root: string, path: string, as = path): void {
  mkdirSync(dirname(join(root, as)), { recursive: true });
  copyFileSync(realpathSync(path), join(root, as));
  chmodSync(join(root, as), 0o755);
}

/**
 * Writes a root filesystem that stands in for `node:20-slim` where no image registry is
 * reachable: this machine's own Node binary and npm, a shell and the few tools the RUN steps
 * use, the shared libraries `ldd` names for them and for the native addons of the dependencies
 * (`addons`: the official image holds all of glibc; rolldown's binding needs librt), the machine's CA file and npm configuration
 * (the build's `npm ci` reaches the registry as the machine does), and a user `node` (uid 1000)
 * as the official image has.
 */
export function writeBaseRootfs(root: string, addons: string[] = []): void {
  const node = execFileSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' }).trim();
  const npmRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
  const binaries = [
    { from: node, to: '/usr/local/bin/node' },
    ...TOOLS.map((t) => ({
      from: execFileSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).trim(),
      to: t === 'sh' ? '/bin/sh' : `/usr/bin/${t}`,
    })),
  ];
  for (const b of binaries) copyInto(root, b.from, b.to);
  for (const file of [...binaries.map((b) => b.from), ...addons])
    for (const lib of sharedLibraries(realpathSync(file))) if (!existsSync(join(root, lib))) copyInto(root, lib);
  cpSync(join(npmRoot, 'npm'), join(root, 'usr/local/lib/node_modules/npm'), { recursive: true });
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
  // npm's global configuration lives under its prefix: /usr/local/etc/npmrc for a node in /usr/local/bin.
  for (const [from, to] of [
    ['/etc/ssl/certs/ca-certificates.crt', '/etc/ssl/certs/ca-certificates.crt'],
    ['/etc/npmrc', '/usr/local/etc/npmrc'],
  ])
    if (existsSync(from)) {
      mkdirSync(dirname(join(root, to)), { recursive: true });
      copyFileSync(from, join(root, to));
    }
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
  for (const d of ['tmp', 'root', 'home/node']) mkdirSync(join(root, d), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  chownSync(join(root, 'home/node'), 1000, 1000);
}

/** The native addons (`*.node`) installed under a node_modules folder. */
export function nativeAddons(nodeModules: string): string[] {
  const out = execFileSync('find', ['-L', nodeModules, '-name', '*.node', '-type', 'f'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/** Builds the stand-in base image from `writeBaseRootfs` with `podman import`; returns its name. */
export function importBaseImage(root: string, addons: string[], name = 'localhost/conformance-node-base:test'): string {
  writeBaseRootfs(root, addons);
  const tar = `${root}.tar`;
  execFileSync('tar', ['-C', root, '-cf', tar, '.']);
  execFileSync(
    PODMAN[0],
    [...PODMAN.slice(1), 'import', '--change', 'ENV PATH=/usr/local/bin:/usr/bin:/bin', tar, name],
    {
      stdio: 'ignore',
    },
  );
  return name;
}
