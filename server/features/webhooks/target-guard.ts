import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Never reachable by a webhook, whatever the settings: the clouds' instance metadata services. */
const metadata = new BlockList();
metadata.addAddress('169.254.169.254');
metadata.addAddress('100.100.100.200');
metadata.addAddress('fd00:ec2::254', 'ipv6');

/** Loopback, private, link-local and other non-public ranges (IPv4-mapped IPv6 included). */
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

/** Why an address may not be a webhook target, or null when it may. */
export function refusalOf(address: string, allowPrivate: boolean): string | null {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (metadata.check(address, family)) return `${address} is a cloud metadata address`;
  if (!allowPrivate && internal.check(address, family)) {
    return `${address} is a loopback, private or link-local address`;
  }
  return null;
}

/** Only http(s) URLs; anything else is refused before a name is looked up. */
export function assertWebhookUrl(url: URL) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetRefused(`${url.protocol} URLs are not allowed`);
  }
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) === 0) return;
  return literal;
}

/**
 * A `lookup` for node:http(s) that resolves the name and refuses the connection if any of its
 * addresses is internal: checked for every delivery at connect time, so a name that changes
 * its address after the URL was saved (DNS rebinding) is caught, and the connection goes to
 * the very address that was checked.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      for (const entry of list) {
        const refusal = refusalOf(entry.address, allowPrivate);
        if (refusal)
          return callback(new TargetRefused(`${hostname} resolves to ${refusal}`), '', 0);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new TargetRefused(`${hostname} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** Names of the clouds' metadata services: refused like their addresses, whatever the settings. */
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata',
  'instance-data.ec2.internal',
]);

/** How long a save waits for the name to resolve; a slow or missing answer leaves it to delivery. */
const SAVE_LOOKUP_MS = 2_000;

/**
 * Why a URL may not be saved as a webhook target, or null when it may. The same rules as at
 * delivery, applied early so an admin learns at once: literal addresses in any notation the URL
 * parser accepts (2130706433, [::ffff:127.0.0.1]), loopback and metadata names, and names
 * that resolve to a refused address now. A name that does not resolve (yet) is accepted: the
 * delivery checks it again when it connects.
 */
export async function saveRefusalOf(
  target: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<LookupAddress[]> = (host) =>
    dnsPromises.lookup(host, { all: true }),
): Promise<string | null> {
  let url: URL;
  let literal: string | undefined;
  try {
    url = new URL(target);
    literal = assertWebhookUrl(url);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (literal) return refusalOf(literal, allowPrivate);
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata name`;
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    return `${host} is a loopback name`;
  }
  const addresses = await Promise.race([
    resolve(host).catch(() => []),
    new Promise<LookupAddress[]>((done) => setTimeout(() => done([]), SAVE_LOOKUP_MS).unref()),
  ]);
  for (const { address } of addresses) {
    const refusal = refusalOf(address, allowPrivate);
    if (refusal) return `${host} resolves to ${refusal}`;
  }
  return null;
}
