/**
 * The team's blob store address (issue 29): bucket, prefix and settings read from `s3://…`, S3's bucket rules
 * enforced in words, and credentials refused wherever they are put in the URL, without the message repeating them.
 */
import { describe, expect, it } from 'vitest';
import { BlobsUrlError, parseBlobsUrl, redactedBlobsUrl } from '../../src/main/team-store/blobs-url.js';

function refusal(text: string, env: Record<string, string | undefined> = {}): string {
  try {
    parseBlobsUrl(text, env);
  } catch (error) {
    expect(error).toBeInstanceOf(BlobsUrlError);
    return (error as Error).message;
  }
  throw new Error(`${text} was accepted`);
}

describe('the blobs URL', () => {
  it('reads bucket, prefix, endpoint, region and path style', () => {
    expect(parseBlobsUrl('s3://team-shots/nightly/runs?endpoint=http://127.0.0.1:4568&region=eu-west-3&path_style=false', {})).toEqual({
      shown: 's3://team-shots/nightly/runs?endpoint=http://127.0.0.1:4568',
      bucket: 'team-shots',
      prefix: 'nightly/runs/',
      endpoint: 'http://127.0.0.1:4568',
      region: 'eu-west-3',
      forcePathStyle: false,
    });
    // A trailing slash and an encoded endpoint read the same.
    expect(parseBlobsUrl('s3://team-shots/nightly/?endpoint=http%3A%2F%2Fminio.lan%3A9000', {})).toMatchObject({
      prefix: 'nightly/',
      endpoint: 'http://minio.lan:9000',
      shown: 's3://team-shots/nightly?endpoint=http://minio.lan:9000',
    });
  });

  it('defaults to AWS: no endpoint, virtual-hosted style, us-east-1 unless AWS_REGION says otherwise', () => {
    expect(parseBlobsUrl('s3://team.shots', {})).toEqual({
      shown: 's3://team.shots',
      bucket: 'team.shots',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(parseBlobsUrl('s3://team-shots', { AWS_REGION: 'ap-south-1' }).region).toBe('ap-south-1');
    expect(parseBlobsUrl('s3://team-shots?region=us-west-2', { AWS_REGION: 'ap-south-1' }).region).toBe('us-west-2');
    // An S3-compatible server answers on one host: path style unless told otherwise.
    expect(parseBlobsUrl('s3://team-shots?endpoint=https://s3.example.com', {}).forcePathStyle).toBe(true);
    expect(parseBlobsUrl('s3://team-shots?endpoint=https://s3.example.com&path_style=false', {}).forcePathStyle).toBe(false);
  });

  it('refuses what is not an s3:// URL', () => {
    expect(refusal('https://team-shots.s3.amazonaws.com')).toMatch(/expected an s3:\/\/ URL like s3:\/\/bucket/);
    expect(refusal('team-shots')).toMatch(/expected an S3 URL like/);
    expect(refusal('')).toMatch(/expected an S3 URL like/);
  });

  it('refuses a URL without a bucket, or a bucket S3 would refuse, saying the rule', () => {
    expect(refusal('s3://')).toMatch(/names no bucket/);
    expect(refusal('s3:///prefix')).toMatch(/names no bucket/);
    expect(refusal('s3://Team-Shots')).toMatch(/only lowercase letters, digits, dots and hyphens/);
    expect(refusal('s3://team_shots')).toMatch(/only lowercase letters, digits, dots and hyphens/);
    expect(refusal('s3://ab')).toMatch(/3 to 63 characters/);
    expect(refusal(`s3://${'a'.repeat(64)}`)).toMatch(/3 to 63 characters/);
    expect(refusal('s3://-shots')).toMatch(/begins and ends with a letter or a digit/);
    expect(refusal('s3://team..shots')).toMatch(/no two dots in a row/);
    expect(refusal('s3://192.168.1.10')).toMatch(/not an IP address/);
    expect(refusal('s3://xn--shots')).toMatch(/does not begin with xn--/);
    expect(refusal('s3://shots-s3alias')).toMatch(/suffix S3 reserves/);
    expect(refusal('s3://team-shots:9000')).toMatch(/no port: give the server as \?endpoint=/);
  });

  it('refuses a prefix that is not plain names', () => {
    expect(refusal('s3://team-shots/a/../b')).toMatch(/no \. or \.\. part/);
    expect(refusal('s3://team-shots/a//b')).toMatch(/empty part/);
    expect(refusal('s3://team-shots/a%20b')).toMatch(/only letters, digits, dots, hyphens and underscores/);
  });

  it('refuses a bad endpoint, region or path style, and any setting it does not know', () => {
    expect(refusal('s3://team-shots?endpoint=127.0.0.1:4568')).toMatch(/endpoint is not a URL \(expected one like http:\/\/127\.0\.0\.1:4568\)/);
    expect(refusal('s3://team-shots?endpoint=not a url')).toMatch(/endpoint is not a URL/);
    expect(refusal('s3://team-shots?endpoint=ftp://files.lan')).toMatch(/endpoint must be an http:\/\/ or https:\/\/ URL, not ftp:/);
    expect(refusal('s3://team-shots?endpoint=http://minio.lan:9000/s3')).toMatch(/server's address only/);
    expect(refusal('s3://team-shots?region=EU West')).toMatch(/region is a name like us-east-1/);
    expect(refusal('s3://team-shots?path_style=yes')).toMatch(/path_style is true or false/);
    expect(refusal('s3://team-shots?endpoint=http://a:1&endpoint=http://b:2')).toMatch(/endpoint is given twice/);
    expect(refusal('s3://team-shots?bucket_region=us-east-1')).toMatch(/unknown setting "bucket_region": the URL takes endpoint, region, path_style/);
    expect(refusal('s3://team-shots#x')).toMatch(/no #fragment/);
  });

  it('refuses credentials in the URL, points to the environment, and never repeats them', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
    const cases = [
      `s3://AKIAIOSFODNN7EXAMPLE:${secret}@team-shots/prefix`,
      `s3://AKIAIOSFODNN7EXAMPLE@team-shots`,
      `s3://team-shots?endpoint=http://AKIAIOSFODNN7EXAMPLE:${secret}@minio.lan:9000`,
      `s3://team-shots?endpoint=${encodeURIComponent(`http://AKIAIOSFODNN7EXAMPLE:${secret}@minio.lan:9000`)}`,
      `s3://team-shots?aws_secret_access_key=${encodeURIComponent(secret)}`,
    ];
    for (const text of cases) {
      const message = refusal(text);
      expect(message, text).not.toContain('AKIAIOSFODNN7EXAMPLE');
      expect(message, text).not.toContain('wJalrXUtnFEMI');
      expect(message, text).not.toContain('EXAMPLEKEY');
    }
    expect(refusal(cases[0]!)).toBe(
      'the blobs URL carries credentials; leave them out and set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment instead (in s3://***@team-shots/prefix)',
    );
    expect(refusal(cases[2]!)).toMatch(/^the endpoint carries credentials; .* AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY .*\(in s3:\/\/team-shots\?endpoint=http:\/\/\*\*\*@minio\.lan:9000\)$/);
    expect(redactedBlobsUrl('s3://team-shots?region=us-east-1&token=abc')).toBe('s3://team-shots?region=us-east-1&token=***');
  });
});
