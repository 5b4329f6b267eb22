/**
 * Credentials in the query of a server URL (issue 33, finding 15): `sslpassword` and every setting whose name holds
 * "password" (any case), "secret" or "token" are masked wherever the team store's, the bucket's or the queue's URL
 * is printed or put in an error; paths such as `passfile` and `sslkey` stay shown, since they are not secrets.
 */
import { describe, expect, it } from 'vitest';
import { parseQueueUrl, QueueUrlError, redactedQueueUrl } from '../../src/main/queue/queue-url.js';
import { BlobsUrlError, parseBlobsUrl, redactedBlobsUrl } from '../../src/main/team-store/blobs-url.js';
import { parseStoreUrl, StoreUrlError, withoutSecrets } from '../../src/main/team-store/store-url.js';
import { credentialValues, isCredentialParameter, maskedQuery } from '../../src/shared/url-credentials.js';

const SECRET = 'hunter2-Xq9';

describe('which query settings are credentials', () => {
  it.each(['password', 'sslpassword', 'SSLPASSWORD', 'PGPASSWORD', 'db_Password', 'pass%77ord', 'passwd', 'sslpassphrase', 'secret', 'aws_secret_access_key', 'token', 'auth_token', 'credentials'])(
    '%s is one',
    (name) => expect(isCredentialParameter(name)).toBe(true),
  );

  it.each(['passfile', 'sslkey', 'sslcert', 'sslrootcert', 'sslmode', 'user', 'host', 'application_name', 'options'])('%s is not', (name) => {
    expect(isCredentialParameter(name)).toBe(false);
  });

  it('masks their values and keeps the rest as written', () => {
    expect(maskedQuery('?sslmode=require&sslpassword=a%2Bb&passfile=/home/me/.pgpass&Password=x')).toBe('?sslmode=require&sslpassword=***&passfile=/home/me/.pgpass&Password=***');
    expect(maskedQuery('?a=1&b', { maskAll: true })).toBe('?a=***&b');
    expect(maskedQuery('')).toBe('');
    expect(credentialValues('?sslpassword=a%2Bb+c&user=me').sort()).toEqual(['a%2Bb+c', 'a+b c'].sort());
  });
});

describe('the team store URL', () => {
  it('masks sslpassword and every *password* setting in the printed form, and withoutSecrets removes their values', () => {
    const address = parseStoreUrl(`postgres://team@db.example.com/sightline?sslmode=require&sslpassword=${SECRET}&sslkey=/keys/client.key&passfile=/home/me/.pgpass&PGPassword=${SECRET}2`);
    expect(address.shown).toBe('postgres://team@db.example.com/sightline?sslmode=require&sslpassword=***&sslkey=/keys/client.key&passfile=/home/me/.pgpass&PGPassword=***');
    expect(JSON.stringify(address)).not.toContain(SECRET);
    expect(withoutSecrets(`the key's passphrase ${SECRET} was refused`, address)).toBe("the key's passphrase *** was refused");
    // pg is still handed the URL as given.
    expect(address.connectionString).toContain(`sslpassword=${SECRET}`);
  });

  it('masks a percent-encoded value as written and as decoded, and a fragment', () => {
    const address = parseStoreUrl('postgres://db.example.com/sightline?sslpassword=p%40ss+word#also-secret');
    expect(address.shown).toBe('postgres://db.example.com/sightline?sslpassword=***#***');
    expect(withoutSecrets('p@ss word, p%40ss+word', address)).toBe('***, ***');
  });

  it('puts no credential of the query in an error', () => {
    const error = (() => {
      try {
        parseStoreUrl(`postgres://team@db.example.com/sightline/extra?sslpassword=${SECRET}`);
      } catch (thrown) {
        return thrown as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(StoreUrlError);
    expect(error?.message).toContain('sslpassword=***');
    expect(error?.message).not.toContain(SECRET);
  });
});

describe('the blobs URL', () => {
  it('masks the query and fragment of an endpoint, plain or percent-encoded, of which only the origin is used', () => {
    for (const text of [
      `s3://shots?endpoint=http://minio:9000/?sslpassword=${SECRET}`,
      `s3://shots?endpoint=${encodeURIComponent(`http://minio:9000/?password=${SECRET}`)}`,
      `s3://shots?endpoint=http://minio:9000#${SECRET}`,
    ]) {
      expect(() => parseBlobsUrl(text, {})).toThrow(BlobsUrlError);
      expect(() => parseBlobsUrl(text, {})).not.toThrow(SECRET);
      expect(redactedBlobsUrl(text)).not.toContain(SECRET);
    }
    expect(redactedBlobsUrl(`s3://shots?region=us-east-1&sslpassword=${SECRET}`)).toBe('s3://shots?region=us-east-1&sslpassword=***');
  });
});

describe('the queue URL', () => {
  it('masks every query value and a fragment, which the queue does not take, in its refusal', () => {
    for (const text of [`redis://127.0.0.1:6379?password=${SECRET}`, `redis://127.0.0.1:6379/0?Token=${SECRET}`, `redis://127.0.0.1:6379#${SECRET}`]) {
      expect(() => parseQueueUrl(text)).toThrow(QueueUrlError);
      expect(() => parseQueueUrl(text)).not.toThrow(SECRET);
    }
    expect(redactedQueueUrl(`redis://127.0.0.1:6379?password=${SECRET}&db=1`)).toBe('redis://127.0.0.1:6379?password=***&db=***');
  });

  it('masks a password holding a slash up to the last @ of the authority', () => {
    expect(redactedQueueUrl(`could not reach redis://worker:pa/ss${SECRET}@redis.internal:6379/2`)).toBe('could not reach redis://***@redis.internal:6379/2');
  });
});
