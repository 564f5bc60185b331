import ipaddr from 'ipaddr.js';

/** One parsed blacklist rule: the text as written (its key for hit counts) and its range. */
export interface BlacklistRule {
  rule: string;
  /** The 1-based line of the rule in the admin's text. */
  line: number;
  addr: ipaddr.IPv4 | ipaddr.IPv6;
  bits: number;
}

/** The text parsed: its rules, and the lines that did not parse (1-based, with their text). */
export interface ParsedBlacklist {
  rules: BlacklistRule[];
  invalid: { line: number; text: string }[];
}

/**
 * Parses NodeBB's blacklist text: one address or CIDR range per line, `#` starts a comment
 * (a whole line or the end of one), blank lines ignored. IPv4-mapped IPv6 addresses are
 * read as IPv4, so `::ffff:10.0.0.1` and `10.0.0.1` are the same member.
 */
export function parseBlacklist(text: string): ParsedBlacklist {
  const rules: BlacklistRule[] = [];
  const invalid: ParsedBlacklist['invalid'] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const rule = raw.replace(/#.*$/, '').trim();
    if (!rule) return;
    const parsed = parseRule(rule);
    if (parsed) rules.push({ rule, line: i + 1, ...parsed });
    else invalid.push({ line: i + 1, text: rule });
  });
  return { rules, invalid };
}

function parseRule(rule: string): { addr: ipaddr.IPv4 | ipaddr.IPv6; bits: number } | null {
  try {
    if (rule.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(rule);
      return normalise(addr, bits);
    }
    if (!ipaddr.isValid(rule)) return null;
    const addr = ipaddr.parse(rule);
    return normalise(addr, addr.kind() === 'ipv4' ? 32 : 128);
  } catch {
    return null;
  }
}

function normalise(addr: ipaddr.IPv4 | ipaddr.IPv6, bits: number): { addr: ipaddr.IPv4 | ipaddr.IPv6; bits: number } {
  // A v4-mapped v6 range (::ffff:0:0/96 and longer) is a v4 range.
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return { addr: (addr as ipaddr.IPv6).toIPv4Address(), bits: bits - 96 };
  }
  return { addr, bits };
}

/** The address as the blacklist compares it (v4-mapped v6 as v4), or null when it does not parse. */
export function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = ip.trim();
  if (!ipaddr.isValid(trimmed)) return null;
  return ipaddr.process(trimmed);
}

/** The first rule that covers the address, or null (an address that does not parse matches nothing). */
export function matchRule(rules: BlacklistRule[], ip: string): BlacklistRule | null {
  const addr = parseAddress(ip);
  if (!addr) return null;
  for (const r of rules) {
    if (r.addr.kind() !== addr.kind()) continue;
    if (addr.kind() === 'ipv4' ? (addr as ipaddr.IPv4).match(r.addr as ipaddr.IPv4, r.bits) : (addr as ipaddr.IPv6).match(r.addr as ipaddr.IPv6, r.bits)) return r;
  }
  return null;
}
