import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isOwnHostName, linkBase, type ServerNames } from '../../src/server/mail/link-base';

const card = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;
const names: ServerNames = {
  hostname: 'Werkstatt-Server',
  interfaces: {
    lo: [card('127.0.0.1', 'IPv4', true), card('::1', 'IPv6', true)],
    eth0: [card('192.168.178.20', 'IPv4'), card('fd00:0:0:0::2', 'IPv6')],
  },
};
const unset = { publicUrl: 'http://localhost:3000', publicUrlSet: false, host: '0.0.0.0', port: 3000 };
const base = (host: string, protocol = 'http', config = unset, serverNames = names) => linkBase(config, { host, protocol: protocol as 'http' | 'https' }, serverNames);

describe('linkBase: the start of the link in a shared mail', () => {
  it('is PUBLIC_URL when it is set, whatever the request says', () => {
    const config = { ...unset, publicUrl: 'https://wartung.werk.example', publicUrlSet: true };
    for (const host of ['evil.example', 'localhost:3000', '192.168.178.20:3000', '']) expect(base(host, 'https', config)).toBe('https://wartung.werk.example');
  });

  it('keeps a Host that is one of the server\'s names, with the server\'s port or none', () => {
    expect(base('localhost:3000')).toBe('http://localhost:3000');
    expect(base('LOCALHOST')).toBe('http://localhost');
    expect(base('127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(base('127.1.2.3:3000')).toBe('http://127.1.2.3:3000');
    expect(base('[::1]:3000')).toBe('http://[::1]:3000');
    expect(base('192.168.178.20:3000')).toBe('http://192.168.178.20:3000');
    expect(base('[FD00::2]:3000')).toBe('http://[fd00::2]:3000');
    expect(base('werkstatt-server:3000')).toBe('http://werkstatt-server:3000');
    expect(base('WERKSTATT-SERVER')).toBe('http://werkstatt-server');
    expect(base('192.168.178.20:3000', 'https')).toBe('https://192.168.178.20:3000');
  });

  it('falls back to a name the server knows it has for any other Host, never the caller\'s', () => {
    for (const host of [
      'evil.example',
      'evil.example:3000',
      '192.168.178.21:3000',
      '192.168.178.20:8080',
      'localhost:80',
      'localhost.evil.example',
      'werkstatt-server.evil.example',
      '[127.0.0.1]:3000',
      '[::ffff:127.0.0.1]:3000',
      'localhost:3000@evil.example',
      'evil.example/localhost:3000',
      'localhost:3000/#',
      '',
    ]) {
      expect(base(host), host).toBe('http://192.168.178.20:3000');
    }
  });

  it('takes only http or https as the scheme (X-Forwarded-Proto through a trusted proxy is free text)', () => {
    expect(base('localhost:3000', 'https://evil.example/#')).toBe('http://localhost:3000');
    expect(base('localhost:3000', 'javascript')).toBe('http://localhost:3000');
  });

  it('falls back to the address the server listens on, else its first LAN address, else its host name', () => {
    expect(base('evil.example', 'https', { ...unset, host: '10.1.2.3' })).toBe('http://10.1.2.3:3000');
    expect(base('evil.example', 'http', unset, { ...names, interfaces: { lo: names.interfaces['lo']! } })).toBe('http://werkstatt-server:3000');
    expect(base('evil.example', 'http', { ...unset, host: '127.0.0.1' })).toBe('http://localhost:3000');
    expect(base('evil.example', 'http', unset, { hostname: 'bad host/name', interfaces: {} })).toBe('http://localhost:3000');
  });
});

describe('isOwnHostName', () => {
  it('knows loopback, the network cards\' addresses and the host name, case-insensitively', () => {
    for (const name of ['localhost', 'LocalHost', '127.0.0.1', '[::1]', '192.168.178.20', '[fd00::2]', '[fd00:0::2]', 'werkstatt-server']) expect(isOwnHostName(name, names), name).toBe(true);
    for (const name of ['evil.example', '192.168.178.2', '[fd00::3]', 'werkstatt', 'localhost.', '::1', '[127.0.0.1]']) expect(isOwnHostName(name, names), name).toBe(false);
  });
});
