import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { InvalidObjectKeyError, isValidObjectKey, type ObjectStore } from './local-store.js';

/** Where the bucket is and who may write to it (the `S3_*` settings of the operations guide). */
export interface S3StoreSettings {
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket` in the path, not the host name: MinIO, Ceph RGW, Garage and s3rver want it. */
  forcePathStyle: boolean;
  /**
   * `direct` (default): a download answers 302 to a presigned GET on the bucket. `proxy`: to the
   * cloud's own presigned link, the cloud streaming the object, for a bucket customers cannot reach.
   */
  presign?: 'direct' | 'proxy';
}

/** The S3 store, with what only a bucket can do. */
export interface S3ObjectStore extends ObjectStore {
  readonly bucket: string;
  /** A GET URL for the object that anyone holding it may follow for `expiresInSeconds`. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
  /** Throws {@link S3StoreCheckError} unless the bucket answers and takes, returns and deletes an object. */
  check(): Promise<void>;
  close(): void;
}

/** The bucket cannot be used; `setting` names the one an operator should look at. */
export class S3StoreCheckError extends Error {
  readonly code = 's3_store_unusable';
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
    this.name = 'S3StoreCheckError';
  }
}

// S3 refuses parts under 5 MiB (but the last); 8 MiB keeps a lot ZIP's memory small and bounded.
const PART_BYTES = 8 * 1024 * 1024;

const isMissing = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Objects in one S3-compatible bucket. A put is one PutObject, or a multipart upload completed
 * only once every part is in: either way the key names the old object or the whole new one,
 * never half a PDF, and a retried job re-putting the same key simply replaces it.
 */
export function s3ObjectStore(settings: S3StoreSettings): S3ObjectStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // The job table retries a failed certificate with its own backoff; the SDK's retries on top
    // would only hold a worker while the store is down.
    maxAttempts: 1,
  });
  const Bucket = settings.bucket;
  const keyOf = (key: string) => {
    if (!isValidObjectKey(key)) throw new InvalidObjectKeyError(key);
    return key;
  };

  async function putParts(Key: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
    let buffered: Buffer[] = [];
    let size = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string; PartNumber: number }[] = [];
    const flush = async () => {
      const Body = Buffer.concat(buffered);
      buffered = [];
      size = 0;
      if (uploadId === undefined) {
        uploadId = (await client.send(new CreateMultipartUploadCommand({ Bucket, Key }))).UploadId;
        if (!uploadId) throw new Error('the store gave no multipart upload id');
      }
      const PartNumber = parts.length + 1;
      const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body }));
      parts.push({ ETag: ETag ?? '', PartNumber });
    };
    try {
      for await (const chunk of chunks) {
        buffered.push(Buffer.from(chunk));
        size += chunk.length;
        if (size >= PART_BYTES) await flush();
      }
      if (uploadId === undefined) {
        // Small enough for one request: no multipart upload to leave behind.
        await client.send(new PutObjectCommand({ Bucket, Key, Body: Buffer.concat(buffered) }));
        return;
      }
      if (size > 0) await flush();
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      if (uploadId !== undefined) {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => undefined);
      }
      throw error;
    }
  }

  async function readStream(key: string): Promise<NodeJS.ReadableStream | undefined> {
    try {
      const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }));
      return Body as Readable;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  return {
    bucket: Bucket,
    where: `S3 bucket ${JSON.stringify(Bucket)} at ${settings.endpoint ?? `AWS ${settings.region}`}`,
    async put(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes }));
    },
    putStream: (key, chunks) => putParts(keyOf(key), chunks),
    readStream,
    async get(key) {
      const stream = await readStream(key);
      if (!stream) return undefined;
      const parts: Buffer[] = [];
      for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
      return new Uint8Array(Buffer.concat(parts));
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    presignGet: (key, expiresIn) => getSignedUrl(client, new GetObjectCommand({ Bucket, Key: keyOf(key) }), { expiresIn }),
    // The bucket serves the download itself: the GET names the type and inline name the cloud's own link would.
    ...(settings.presign === 'proxy'
      ? {}
      : {
          downloadUrl: (key: string, expiresIn: number, served: { contentType: string; contentDisposition: string }) =>
            getSignedUrl(client, new GetObjectCommand({ Bucket, Key: keyOf(key), ResponseContentType: served.contentType, ResponseContentDisposition: served.contentDisposition }), { expiresIn }),
        }),
    async check() {
      const probe = `start-check/${randomUUID()}`;
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: probe, Body: 'ok' }));
        const back = await this.get(probe);
        if (Buffer.from(back ?? []).toString() !== 'ok') throw new Error('the probe object did not read back');
        await client.send(new DeleteObjectCommand({ Bucket, Key: probe }));
      } catch (error) {
        throw checkError(error, settings);
      }
    },
    close: () => client.destroy(),
  };
}

/** The setting a failed start check points at, from what the store (or the network) answered. */
function checkError(error: unknown, settings: S3StoreSettings): S3StoreCheckError {
  const name = error instanceof Error ? error.name : '';
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  if (name === 'NoSuchBucket' || status === 404) return new S3StoreCheckError('S3_BUCKET', `bucket ${JSON.stringify(settings.bucket)} does not exist`);
  if (['InvalidAccessKeyId', 'AccessDenied', 'SignatureDoesNotMatch'].includes(name) || status === 403) {
    return new S3StoreCheckError('S3_ACCESS_KEY_ID', `the bucket refused these credentials (${name}); check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`);
  }
  if (status === undefined) {
    return new S3StoreCheckError('S3_ENDPOINT', `the store at ${settings.endpoint ?? 'the AWS endpoint'} did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  return new S3StoreCheckError('S3_ENDPOINT', `the bucket answered ${status} ${name}`);
}
