/**
 * The C library a Linux distribution is built on, from the platform name its agent reports in
 * the static report: the os-release ID from Dash's agent, gopsutil's platform name from
 * Ithiltir-node (which says `redhat`, `oracle`, `suse`, `amazon` for some of them). Only names
 * whose distribution has a single C library are listed: Void, Gentoo and anything unknown are
 * answered with undefined, because an upgrade to a build that cannot start would leave the
 * node without an agent.
 */
const MUSL = new Set(['alpine', 'postmarketos', 'chimera', 'adelie', 'openwrt']);

const GLIBC = new Set([
  'debian',
  'ubuntu',
  'raspbian',
  'linuxmint',
  'pop',
  'elementary',
  'kali',
  'deepin',
  'uos',
  'devuan',
  'proxmox',
  'centos',
  'rhel',
  'redhat',
  'fedora',
  'rocky',
  'almalinux',
  'ol',
  'oracle',
  'amzn',
  'amazon',
  'cloudlinux',
  'scientific',
  'eurolinux',
  'virtuozzo',
  'openeuler',
  'anolis',
  'alinux',
  'tencentos',
  'kylin',
  'euleros',
  'opensuse',
  'opensuse-leap',
  'opensuse-tumbleweed',
  'suse',
  'sles',
  'sled',
  'arch',
  'archarm',
  'manjaro',
  'endeavouros',
  'nixos',
  'clear-linux-os',
  'photon',
  'mariner',
  'azurelinux',
  'slackware',
]);

export function distributionLibc(platform: string): 'glibc' | 'musl' | undefined {
  const id = platform.trim().toLowerCase();
  if (MUSL.has(id)) return 'musl';
  return GLIBC.has(id) ? 'glibc' : undefined;
}
