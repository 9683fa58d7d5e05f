import { describe, expect, it } from 'vitest';
import { BaseUrlError, isLoopbackHost, parseBaseUrl } from '../../src/api/base-url.js';
import { createShopClient } from '../../src/api/client.js';

describe('base URL', () => {
  it('accepts https://host/…/v1 and drops a trailing slash', () => {
    expect(parseBaseUrl('https://api.example.com/v1')).toBe('https://api.example.com/v1');
    expect(parseBaseUrl('https://api.example.com/shop/api/v1/')).toBe('https://api.example.com/shop/api/v1');
    expect(parseBaseUrl('  https://api.example.com:8443/v1  ')).toBe('https://api.example.com:8443/v1');
  });

  it('allows plain http only for loopback hosts', () => {
    expect(parseBaseUrl('http://127.0.0.1:4010/v1')).toBe('http://127.0.0.1:4010/v1');
    expect(parseBaseUrl('http://localhost:4010/v1')).toBe('http://localhost:4010/v1');
    expect(parseBaseUrl('http://[::1]:4010/v1')).toBe('http://[::1]:4010/v1');
    for (const url of [
      'http://api.example.com/v1',
      'http://10.0.0.5/v1',
      'http://127.0.0.1.example.com/v1',
    ]) {
      expect(() => parseBaseUrl(url)).toThrow(/use https/);
    }
  });

  it('refuses what is not a v1 base URL, saying why', () => {
    expect(() => parseBaseUrl('api.example.com/v1')).toThrow(BaseUrlError);
    expect(() => parseBaseUrl('ftp://api.example.com/v1')).toThrow(/https/);
    expect(() => parseBaseUrl('https://api.example.com/v2')).toThrow(/end with \/v1/);
    expect(() => parseBaseUrl('https://api.example.com/')).toThrow(/end with \/v1/);
    expect(() => parseBaseUrl('https://api.example.com/xv1')).toThrow(/end with \/v1/);
    expect(() => parseBaseUrl('https://user:pw@api.example.com/v1')).toThrow(/user name or password/);
    expect(() => parseBaseUrl('https://api.example.com/v1?x=1')).toThrow(/query string/);
  });

  it('knows the loopback hosts', () => {
    expect(isLoopbackHost('127.10.0.1')).toBe(true);
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
  });

  it('is checked when a client is created, before any request', () => {
    expect(() => createShopClient({ baseUrl: 'http://shop.example.com/v1', apiKey: 'k' })).toThrow(
      BaseUrlError,
    );
    expect(() => createShopClient({ baseUrl: 'https://shop.example.com/v1', apiKey: '' })).toThrow(/empty/);
  });
});
