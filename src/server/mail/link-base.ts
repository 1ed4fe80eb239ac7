import { isIP } from 'node:net';
import { hostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { networkUrls } from '../start-banner';

/** The names this machine is known by: os.hostname() and os.networkInterfaces(), passed in so the rule can be tested. */
export interface ServerNames {
  hostname: string;
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
}

/**
 * Read per share, not once at start: a DHCP lease or a new network card changes the addresses while the server
 * runs, and a share is rare (rate-limited per user), so the system call costs nothing worth keeping.
 */
export function currentServerNames(): ServerNames {
  return { hostname: hostname(), interfaces: networkInterfaces() };
}

/** A host name (letters, digits, dots, hyphens) or a bracketed IPv6 literal, with an optional port. */
const HOST_HEADER = /^(?<name>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?<port>\d{1,5}))?$/;

/** An IP address as os.networkInterfaces() writes it, canonical: IPv6 compressed and lower-case; undefined for a name. */
function canonicalIp(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) return address;
  if (version === 6) return new URL(`http://[${address}]`).hostname.slice(1, -1);
  return undefined;
}

/**
 * The IP address a URL host names — IPv4 bare, IPv6 in brackets — canonical and without the brackets; undefined for
 * a name, and for an IPv4 in brackets or an IPv6 without them, which are no URL hosts.
 */
function ipLiteral(name: string): string | undefined {
  const bracketed = name.startsWith('[') && name.endsWith(']');
  const ip = canonicalIp(bracketed ? name.slice(1, -1) : name);
  return ip !== undefined && ip.includes(':') === bracketed ? ip : undefined;
}

function isLoopback(name: string): boolean {
  const ip = ipLiteral(name);
  if (ip === undefined) return name.toLowerCase() === 'localhost';
  return /^127(\.\d{1,3}){3}$/.test(ip) || ip === '::1';
}

/**
 * Whether `name` is one of this server's own names: localhost or a loopback address, an address of one of its
 * network cards, or its host name (case-insensitive).
 */
export function isOwnHostName(name: string, names: ServerNames): boolean {
  if (isLoopback(name)) return true;
  const ip = ipLiteral(name);
  if (ip === undefined) return name.toLowerCase() === names.hostname.toLowerCase();
  return Object.values(names.interfaces)
    .flatMap((list) => list ?? [])
    .some((info) => canonicalIp(info.address) === ip);
}

/**
 * The address the link in a mail starts with (no trailing slash). A link in a mail must point at this server under
 * a name it knows it has: the Host (or, from a trusted proxy, X-Forwarded-Host — Fastify's `request.host`) is the
 * caller's word, and taking it as given let any user with notification read mail a link to a host of their choice
 * to any address (phishing).
 *
 * - PUBLIC_URL set: always PUBLIC_URL, whatever the request says.
 * - Otherwise the address the sharing device reached the server at (as the service sticker does), since the default
 *   http://localhost:PORT is no address a recipient reaches — but only when its host is one of the server's own
 *   names (`isOwnHostName`) and its port, if any, is the one the server listens on.
 * - Anything else: a name the server knows it has (the address it listens on, else its first LAN address, else its
 *   host name, each with PORT), never the caller's.
 *
 * The scheme is the request's (`https` through a trusted proxy's X-Forwarded-Proto) when the host is accepted, and
 * only `http` or `https`: with TRUST_PROXY the proxy header is free text and would otherwise start the link.
 */
export function linkBase(
  config: Pick<Config, 'publicUrl' | 'publicUrlSet' | 'host' | 'port'>,
  request: Pick<FastifyRequest, 'protocol' | 'host'>,
  names: ServerNames = currentServerNames(),
): string {
  if (config.publicUrlSet) return config.publicUrl;
  const match = HOST_HEADER.exec(request.host);
  const name = match?.groups?.['name'];
  const port = match?.groups?.['port'];
  if (name !== undefined && (port === undefined || Number(port) === config.port) && isOwnHostName(name, names)) {
    const scheme = request.protocol === 'https' ? 'https' : 'http';
    // Rebuilt from the checked parts, lower-cased: nothing of the header but the name and the port reaches the mail.
    return `${scheme}://${name.toLowerCase()}${port === undefined ? '' : `:${Number(port)}`}`;
  }
  return knownBase(config, names);
}

/**
 * The base of a link when the request's host is not one of the server's names. The server speaks plain http on
 * PORT (docs/security.md, HSTS), so these are http. On loopback only (HOST 127.0.0.1) no other machine reaches it,
 * and the localhost default is as good as any.
 */
function knownBase(config: Pick<Config, 'publicUrl' | 'host' | 'port'>, names: ServerNames): string {
  const [lan] = networkUrls(config.host, config.port, names.interfaces);
  if (lan !== undefined) return lan;
  if (isLoopback(config.host) || !/^[A-Za-z0-9.-]+$/.test(names.hostname)) return config.publicUrl;
  return `http://${names.hostname.toLowerCase()}:${config.port}`;
}
