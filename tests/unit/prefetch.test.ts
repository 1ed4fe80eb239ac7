import { describe, expect, it } from 'vitest';
import { screenForPath } from '../../src/client/app/prefetch';

describe('screenForPath (the chunk a cold start loads at once)', () => {
  it("gives a guest the guest screen of the path, e.g. the login's chunk on /login", () => {
    expect(screenForPath('/login', false)?.path).toBe('/login');
  });

  it('gives a guest no private screen: the guard sends the guest to the login', () => {
    expect(screenForPath('/dashboard', false)).toBeUndefined();
    expect(screenForPath('/machine-overview', false)).toBeUndefined();
  });

  it('gives a signed-in user the private screen, with path parameters matched', () => {
    expect(screenForPath('/dashboard', true)?.path).toBe('/dashboard');
    expect(screenForPath('/sites/3', true)?.path).toBe('/sites/:no_sites');
  });

  it('gives a signed-in user no guest screen: the guard sends the user on', () => {
    expect(screenForPath('/login', true)).toBeUndefined();
  });

  it('prefetches nothing for a path the router answers with the 404', () => {
    expect(screenForPath('/no-such-screen', true)).toBeUndefined();
    expect(screenForPath('/no-such-screen', false)).toBeUndefined();
  });
});
