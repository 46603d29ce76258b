// The addresses the Web Push client connects to at a known push service (docs/members-app.md "Web Push",
// "Addresses"): only public ones. The endpoint guard (subscription.ts) checks the endpoint's name; this
// checks what the name resolves to, in the connection's own lookup, so the address checked is the address
// connected to (a DNS answer that changes between a check and the request cannot slip past).
import dns, { type LookupAddress } from 'node:dns';
import net from 'node:net';

/** An address the client does not connect to, and why (a DNS answer that names one fails the connection). */
export class ForbiddenAddress extends Error {
  readonly code = 'EFORBIDDENADDRESS';
}

/** Resolves a name as dns.lookup does with `all: true` (a test may answer as a hostile DNS would). */
export type Resolver = (
  hostname: string,
  options: { family?: number; hints?: number; all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The system's resolver, looked up at each call. */
export const systemResolver: Resolver = (hostname, options, callback) => dns.lookup(hostname, options, callback);

const V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (broadcast included)'],
];
const V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(rules: Array<[string, number, string]>, type: 'ipv4' | 'ipv6') {
  return rules.map(([address, prefix, why]) => {
    const list = new net.BlockList();
    list.addSubnet(address, prefix, type);
    return { list, why };
  });
}
const V4_RULES = blockList(V4, 'ipv4');
const V6_RULES = blockList(V6, 'ipv6');

// The eight 16-bit groups of an IPv6 address (a trailing dotted quad and a zone taken), or null.
function groups(text: string): number[] | null {
  let rest = text.replace(/%.*$/, '');
  if (!net.isIPv6(rest)) return null;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(rest);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    rest = `${rest.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = rest.includes('::') ? rest.split('::') : [rest, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const all = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return all.length === 8 && all.every((g) => g >= 0 && g <= 0xffff) ? all : null;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

// The IPv4 address an IPv6 one carries, where its packets go to that address: IPv4-mapped
// (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64
// (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
function embeddedV4(g: number[]): string | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4Of(g[6], g[7]);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4Of(g[6], g[7]);
  if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4Of(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4Of(g[6], g[7]);
  if (g[0] === 0x2002) return v4Of(g[1], g[2]);
  return null;
}

/** Why the client may not connect to `address` (an IP address as a resolver answers it), or null: it is public. */
export function forbiddenAddress(address: string): string | null {
  const why = kind(address);
  return why ? `${address} (${why})` : null;
}

// What kind of address a non-public one is, or null.
function kind(address: string): string | null {
  if (net.isIPv4(address)) return V4_RULES.find(({ list }) => list.check(address, 'ipv4'))?.why ?? null;
  const g = groups(address);
  if (!g) return 'not an IP address';
  const v4 = embeddedV4(g);
  if (v4) {
    const why = kind(v4);
    return why ? `IPv4 ${v4} inside, ${why}` : null;
  }
  const canonical = g.map((x) => x.toString(16)).join(':');
  return V6_RULES.find(({ list }) => list.check(canonical, 'ipv6'))?.why ?? null;
}

/**
 * A connection's `lookup` that resolves with `resolve` and fails when any address of the answer is not
 * public: the whole name is refused, since an answer mixing public and internal addresses is no push
 * service's.
 */
export function publicLookup(resolve: Resolver): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolve(hostname, { family, hints: options.hints, all: true }, (err, addresses) => {
      if (err) return callback(err);
      if (!Array.isArray(addresses) || addresses.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
      for (const { address } of addresses) {
        const why = forbiddenAddress(String(address));
        if (why) return callback(new ForbiddenAddress(`${hostname} resolves to ${why}: not connected`));
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as net.LookupFunction;
}
