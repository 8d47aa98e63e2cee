/**
 * The standalone agent builds: one executable per OS, CPU and C library, compiled from the agent
 * bundle with Bun's `--compile` (scripts/build-agent-binaries.ts). Each entry names the npm
 * package that carries the Bun runtime for that platform, so every target is built from npm
 * packages alone. Shared by the build, the publisher (agent-assets.ts), the admin deploy info
 * and the tests, so an asset name lives in one place.
 */
export interface AgentTarget {
  /** Short id used on the command line: `node scripts/build-agent-binaries.ts linux-amd64`. */
  id: string;
  os: 'linux' | 'macos' | 'windows';
  arch: 'amd64' | 'arm64';
  libc?: 'musl';
  /** Path under $DASH_HOME/deploy (reference §1.6; musl builds add a `_musl` suffix). */
  asset: string;
  /** `bun build --target` value. */
  bunTarget: string;
  /** Bun release this target is compiled with (and its runtime package's version). */
  bunVersion: string;
  /** npm package with the Bun runtime for this target (file `bin/bun` or `bin/bun.exe`). */
  runtimePackage: string;
  /** Pinned npm integrity of `runtimePackage@bunVersion`; the build refuses any other tarball. */
  runtimeIntegrity: string;
  /** What the file header must say (checked by test/deploy/agent-binaries.test.ts). */
  format: 'elf' | 'macho' | 'pe';
}

/** Bun release the agents are compiled with; must equal the `bun` devDependency. */
export const BUN_VERSION = '1.4.5';

/**
 * Bun release of the Windows builds. Bun 1.4's Windows x64 runtime is 88 MB of machine code and
 * its agent compresses to 52.9 MB, over the 50 MB download target whatever the gzip encoder;
 * 1.3.14's compresses to 37.9 MB. It lacks `--compile-jit-policy` (about 4.5 MiB more resident
 * memory), which is the smaller cost on Windows hosts. See docs/agent.md, "Download size".
 */
export const WINDOWS_BUN_VERSION = '1.3.14';

// npm integrities of the runtime packages (from `npm view <pkg>@<v> dist.integrity`). Every
// package of each version is pinned: any of them can be the compiler on a host of its platform.
const RUNTIME_INTEGRITY: Record<string, Record<string, string>> = {
  [BUN_VERSION]: {
    '@oven/bun-linux-x64-baseline':
      'sha512-s8yMwYcFnnrA178gji0gZbkE2WVDej/Ti1x770oPfihxyRxSMNhGhiAQNXV53aDeraZxksdvKV/RAdQBCd0qPA==',
    '@oven/bun-linux-aarch64':
      'sha512-4BXmsSKnjOrlGWqZV4x/oWa7AVoR+B6lCXddMzOAXBIm3t50eslg9wb66gmtW1AamEQ1l1CDvmmruysEhqOWMg==',
    '@oven/bun-linux-x64-musl-baseline':
      'sha512-cWJhU8h0+MiUgpSt99sQhjxLIIosKEcKYdtKddohokUvAuN6jKOy7g7+QDTZTXtwHxz93wL3BX+L6wXVPDUH3A==',
    '@oven/bun-linux-aarch64-musl':
      'sha512-XCNc+WvvMAdNNb+OWTogpy+N9wm62fkVeEVLb6how0RZhW5LPi6c7BlkeVCuWps7XjEl2saFpHFa20/1E+PAHg==',
    '@oven/bun-darwin-x64-baseline':
      'sha512-zqfLA5A4B+hYMh5WYzYSot3uZ06FzhdP0OEwQisEzdirYtXGj5cQFlfy31BGfNsAsk1Gd/w/OxJ/jqqJ3cMclw==',
    '@oven/bun-darwin-aarch64':
      'sha512-4MIFXHmctH2EhAxLXm2/qxNtv17dFtLJylvaOCsrgq6KSqHTs6eW5YSrJjRbJxYUJaR901fsN8JfZOa+CsWpWQ==',
    '@oven/bun-windows-x64-baseline':
      'sha512-/U3Dc74uGqE6EUqef7mPtg9KwJs7iJH4JHRMfIZIn18MrJh6Xz4gVvWDXRvzCL2j8wPlTnJVyrO4n7Qq4uM7TQ==',
    '@oven/bun-windows-aarch64':
      'sha512-MiPFZnBNDnBXgr1oONc5pizC4fOLjnIOfNkYdFEnWzLmoFTg86naZIG3SvS7d/GglpQSAnCKMAzSjI/TAckiRw==',
  },
  [WINDOWS_BUN_VERSION]: {
    '@oven/bun-linux-x64-baseline':
      'sha512-q/8EdOC0yUE8FPeoOVq8/Pw5I9/tJaYmUfO/uDUAREx8IUnOJH1RJ5A3BjFqre8pvJoiZA9AovPJq5FnNNjSxA==',
    '@oven/bun-linux-aarch64':
      'sha512-X5SsPZHs+iYO8R/efIcRtc7gT2Q2DgPfliCxEkx4cXBumwkw0c/EsHMNwH3EgGpCDaZ7IYVPhpCG/xBOQHEwZw==',
    '@oven/bun-linux-x64-musl-baseline':
      'sha512-n6iE71G4lQE4XkrZhQQcL5YUlxDbnq6nqV7zeQi33PMsLT/0kYE+RvHOtBWZ3w0wMdXZfINmp63hIb9ijUBGtw==',
    '@oven/bun-linux-aarch64-musl':
      'sha512-jmqOA92Cd1NL/1XBd4bFkJLxQ86K0RW7ohxS2qzzAvuitO4JiIxjjTeCspoU44zCozH72HpfZfUE2On31OjnWA==',
    '@oven/bun-darwin-x64-baseline':
      'sha512-OSfsTZstc898HHElhU4NccaBGOSSDn5VfahiVTnidZ9B/+wb7WTyfZJaBeJcfjwJ9H2W9uTh2TGtl3UfcXgV9g==',
    '@oven/bun-darwin-aarch64':
      'sha512-Omj20SuiHBOUjUBIyqtkNjSUIjOtEOJwmbix/ZyFH4BaQ6OZTaaRWIR4TjHVz0yadHgli6lLTiAh1uarnvD49A==',
    '@oven/bun-windows-x64-baseline':
      'sha512-uIjLUC1S9DWgICzuoMba7vurBJnBruE4S5CxnvmZkdqWVXRzx1Rgu636HoH+k0qeaQCFh3jeG3JQ1y6fRHv0sw==',
    '@oven/bun-windows-aarch64':
      'sha512-T7s3x/BsVKQObGU6QDkZeI6wKynzqGbBH1yI77jrrj5siElclxr3DQrDIk8CV4G5/SJq2HHq4kpLyYY2DKCSmA==',
  },
};

/** The pinned npm integrity of one runtime package at one Bun release. */
export function pinnedRuntimeIntegrity(runtimePackage: string, bunVersion: string): string {
  const integrity = RUNTIME_INTEGRITY[bunVersion]?.[runtimePackage];
  if (!integrity) throw new Error(`no pinned integrity for ${runtimePackage}@${bunVersion}`);
  return integrity;
}

function target(
  os: AgentTarget['os'],
  arch: AgentTarget['arch'],
  libc: 'musl' | undefined,
  bunTarget: string,
  runtimePackage: string,
): AgentTarget {
  const bunVersion = os === 'windows' ? WINDOWS_BUN_VERSION : BUN_VERSION;
  const runtimeIntegrity = pinnedRuntimeIntegrity(runtimePackage, bunVersion);
  const suffix = libc ? `_${libc}` : '';
  const ext = os === 'windows' ? '.exe' : '';
  return {
    id: `${os}-${arch}${libc ? `-${libc}` : ''}`,
    os,
    arch,
    ...(libc ? { libc } : {}),
    asset: `${os}/node_${os}_${arch}${suffix}${ext}`,
    bunTarget,
    bunVersion,
    runtimePackage,
    runtimeIntegrity,
    format: os === 'linux' ? 'elf' : os === 'macos' ? 'macho' : 'pe',
  };
}

// amd64 uses Bun's "baseline" builds (no AVX2 needed): old VPS CPUs and some emulators lack it.
export const AGENT_TARGETS: readonly AgentTarget[] = [
  target('linux', 'amd64', undefined, 'bun-linux-x64-baseline', '@oven/bun-linux-x64-baseline'),
  target('linux', 'arm64', undefined, 'bun-linux-arm64', '@oven/bun-linux-aarch64'),
  target(
    'linux',
    'amd64',
    'musl',
    'bun-linux-x64-musl-baseline',
    '@oven/bun-linux-x64-musl-baseline',
  ),
  target('linux', 'arm64', 'musl', 'bun-linux-arm64-musl', '@oven/bun-linux-aarch64-musl'),
  target('macos', 'amd64', undefined, 'bun-darwin-x64-baseline', '@oven/bun-darwin-x64-baseline'),
  target('macos', 'arm64', undefined, 'bun-darwin-arm64', '@oven/bun-darwin-aarch64'),
  target(
    'windows',
    'amd64',
    undefined,
    'bun-windows-x64-baseline',
    '@oven/bun-windows-x64-baseline',
  ),
  target('windows', 'arm64', undefined, 'bun-windows-arm64', '@oven/bun-windows-aarch64'),
];

/** The target this machine runs (for `make run` and the tests), or undefined when there is none. */
export function hostAgentTarget(
  platform: NodeJS.Platform = process.platform,
  cpu: string = process.arch,
  musl: boolean = isMuslHost(platform),
): AgentTarget | undefined {
  const os = platform === 'darwin' ? 'macos' : platform === 'win32' ? 'windows' : platform;
  const arch = cpu === 'x64' ? 'amd64' : cpu === 'arm64' ? 'arm64' : undefined;
  return AGENT_TARGETS.find(
    (t) => t.os === os && t.arch === arch && (t.libc === 'musl') === (os === 'linux' && musl),
  );
}

function isMuslHost(platform: NodeJS.Platform): boolean {
  if (platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
  return !report?.header?.glibcVersionRuntime;
}
