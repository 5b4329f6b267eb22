/**
 * The team store's URL: what pg is handed, what may be printed (the password masked), and a clear refusal of
 * anything that is not a PostgreSQL URL, never repeating the password it holds.
 */
import { describe, expect, it } from 'vitest';
import { parseStoreUrl, StoreUrlError, withoutSecrets } from '../../src/main/team-store/store-url.js';

describe('parseStoreUrl', () => {
  it('reads a postgres:// URL and masks its password in the printed form', () => {
    const address = parseStoreUrl(' postgres://team:s3cr%40t@db.example.com:6543/sightline?sslmode=require ');
    expect(address).toEqual({
      shown: 'postgres://team:***@db.example.com:6543/sightline?sslmode=require',
      host: 'db.example.com',
      port: 6543,
      database: 'sightline',
      user: 'team',
    });
    expect(address.connectionString).toBe('postgres://team:s3cr%40t@db.example.com:6543/sightline?sslmode=require');
  });

  it('keeps the secrets out of a logged or serialised address', () => {
    const address = parseStoreUrl('postgresql://team:hunter2@127.0.0.1/sightline');
    expect(JSON.stringify(address)).not.toContain('hunter2');
    expect(Object.keys(address)).not.toContain('connectionString');
  });

  it('takes postgresql://, the default port, no password (PGPASSWORD), and an IPv6 host', () => {
    expect(parseStoreUrl('postgresql://team@[::1]/sightline')).toEqual({
      shown: 'postgresql://team@[::1]/sightline',
      host: '::1',
      port: 5432,
      database: 'sightline',
      user: 'team',
    });
  });

  it('masks a password given as a parameter too', () => {
    const address = parseStoreUrl('postgres://db.example.com/sightline?user=team&password=hunter2');
    expect(address.shown).toBe('postgres://db.example.com/sightline?user=team&password=***');
    expect(withoutSecrets('login failed with hunter2', address)).toBe('login failed with ***');
  });

  it('removes the password, as written and decoded, from any text', () => {
    const address = parseStoreUrl('postgres://team:p%40ss@db.example.com/sightline');
    expect(withoutSecrets('p@ss and p%40ss', address)).toBe('*** and ***');
  });

  it.each([
    ['', 'The team store URL is empty; give one like postgres://user:password@host:5432/sightline.'],
    ['mysql://team:hunter2@db/sightline', 'The team store URL must start with postgres:// or postgresql://, not mysql:.'],
    ['db.example.com:hunter2', 'The team store URL must start with postgres:// or postgresql://, not db.example.com:.'],
    ['team@db hunter2', 'The team store URL "team…" is not a URL; give one like postgres://user:password@host:5432/sightline.'],
    ['postgres:///sightline', 'The team store URL postgres:///sightline names no host; give one like postgres://user:password@host:5432/sightline.'],
    ['postgres://team:hunter2@db/sightline/extra', 'The team store URL postgres://team:***@db/sightline/extra names more than a database in its path.'],
  ])('refuses %j clearly, without its password', (text, message) => {
    expect(() => parseStoreUrl(text)).toThrow(new StoreUrlError(message));
    expect(message).not.toContain('hunter2');
  });
});
