import { isIPv4, isIPv6 } from 'node:net';

function expandIPv6(ip: string): number[] | undefined {
  const zone = ip.indexOf('%');
  const addr = zone === -1 ? ip : ip.slice(0, zone);
  let head = addr;
  let tail = '';
  const dbl = addr.indexOf('::');
  if (dbl !== -1) {
    head = addr.slice(0, dbl);
    tail = addr.slice(dbl + 2);
  }
  const parse = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (group.includes('.')) {
        const o = group.split('.').map(Number);
        out.push(((o[0] ?? 0) << 8) | (o[1] ?? 0), ((o[2] ?? 0) << 8) | (o[3] ?? 0));
      } else {
        out.push(parseInt(group, 16));
      }
    }
    return out;
  };
  const h = parse(head);
  const t = parse(tail);
  const fill = 8 - h.length - t.length;
  if (fill < 0) return undefined;
  return [...h, ...new Array<number>(dbl === -1 ? 0 : fill).fill(0), ...t];
}

/**
 * The key per-client limits count under: the IPv4 address itself (also when IPv4-mapped), or
 * the /64 of an IPv6 address — one host usually holds a whole /64 and can pick any address in
 * it, so a finer key would not limit it at all.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1] : ip;
  if (v4 && isIPv4(v4)) return v4;
  if (isIPv6(ip)) {
    const g = expandIPv6(ip);
    if (g && g.length === 8)
      return `${g
        .slice(0, 4)
        .map((x) => x.toString(16))
        .join(':')}::/64`;
  }
  return ip;
}
