import { createRequire } from 'node:module';

/**
 * The native block-device addon (native/blockdev.c, built by `npm ci`). Node cannot allocate
 * sector-aligned memory, which O_DIRECT requires (EINVAL otherwise), nor issue block ioctls.
 */
export interface BlockDevAddon {
  /** A zero-filled Buffer whose memory starts on an `alignment` boundary (posix_memalign). */
  alignedBuffer(size: number, alignment: number): Buffer;
  /** Start address of a buffer modulo 2^32: lets tests prove the alignment. */
  addressMod(buffer: Buffer): number;
  /** BLKGETSIZE64: capacity in bytes. */
  deviceSize(fd: number): number;
  /** BLKSSZGET: logical sector size. */
  sectorSize(fd: number): number;
  /** BLKFLSBUF: write back and drop the device's page cache, so later reads come from the medium. */
  flushBuffers(fd: number): void;
  /** BLKDISCARD over a byte range. */
  discard(fd: number, offset: number, length: number): void;
  /**
   * Whether BLKSECDISCARD is supported, asked with an unaligned range so nothing is discarded
   * (Linux 5.19+ only: older kernels answer for plain discard). The fd must be writable.
   */
  secureDiscardSupported(fd: number): boolean;
  /** BLKZEROOUT over a byte range. */
  zeroOut(fd: number, offset: number, length: number): void;
  /** glibc M_TRIM_THRESHOLD / M_MMAP_THRESHOLD: keeps freed cipher output in the heap (see blockdev.c). */
  tuneHeap(trimBytes: number, mmapBytes: number): boolean;
  /**
   * Shannon entropy (bits per byte) of each `blockSize` block of `buffer` into `out`; returns the
   * block count. Optional: an addon built before it has none, and its callers then compute it in JS.
   */
  blockEntropy?(buffer: Buffer, blockSize: number, out: Float64Array): number;
  /** `blockEntropy` on libuv's thread pool (buffer and out must stay untouched until it resolves). */
  blockEntropyAsync?(buffer: Buffer, blockSize: number, out: Float64Array): Promise<number>;
}

/** The addon was not built or cannot load: erase and verify refuse to run (fail closed). */
export class NativeAddonMissingError extends Error {
  readonly code = 'native_addon_missing' as const;
  constructor(options?: { cause?: unknown }) {
    super(
      'the block-device addon (engine-agent/build/Release/erasure_blockdev.node) is not available; ' +
        'build it with `npm rebuild -w @erasure/engine-agent` (needs python3, make, a C compiler and the Node headers)',
      options,
    );
    this.name = 'NativeAddonMissingError';
  }
}

let loaded: BlockDevAddon | undefined;

/** Loads the addon once. Both src/adapters and dist/adapters sit two levels below the workspace. */
export function blockdev(): BlockDevAddon {
  if (loaded) return loaded;
  try {
    const require = createRequire(import.meta.url);
    loaded = require('../../build/Release/erasure_blockdev.node') as BlockDevAddon;
    return loaded;
  } catch (error) {
    throw new NativeAddonMissingError({ cause: error });
  }
}
