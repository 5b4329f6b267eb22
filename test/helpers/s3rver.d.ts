/** The part of s3rver (3.7, which ships no types) that test/helpers/s3-server.ts uses. */
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    /** Creates the configured buckets, then listens. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Set by run(). */
    httpServer?: Server;
  }

  export = S3rver;
}
