/*
 * The few kernel interfaces the overwrite/verify path needs and Node does not expose:
 * sector-aligned memory for O_DIRECT and the block-device ioctls BLKGETSIZE64, BLKSSZGET,
 * BLKFLSBUF, BLKDISCARD and BLKZEROOUT. Plain N-API (no node-addon-api), so it builds with
 * nothing but the Node headers, python3, make and a C compiler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <malloc.h>
#include <math.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define CHECK(call)                                                         \
  do {                                                                      \
    if ((call) != napi_ok) {                                                \
      napi_throw_error(env, "EINTERNAL", "N-API call failed: " #call);    \
      return NULL;                                                          \
    }                                                                       \
  } while (0)

/* Throws an Error carrying errno as `code` (e.g. EBUSY) so callers can branch on it. */
static napi_value throw_errno(napi_env env, const char *what, int err) {
  char message[256];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  const char *code = err == EBUSY ? "EBUSY" : err == EINVAL ? "EINVAL" : err == ENOTTY ? "ENOTTY"
                   : err == EBADF ? "EBADF" : err == EOPNOTSUPP ? "EOPNOTSUPP" : err == EPERM ? "EPERM"
                   : err == EACCES ? "EACCES" : err == ENOMEM ? "ENOMEM" : "EIO";
  napi_throw_error(env, code, message);
  return NULL;
}

static int get_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = want;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < want) {
    napi_throw_type_error(env, "EARGS", "missing arguments");
    return 0;
  }
  return 1;
}

static int get_fd(napi_env env, napi_value v, int32_t *fd) {
  if (napi_get_value_int32(env, v, fd) != napi_ok || *fd < 0) {
    napi_throw_type_error(env, "EARGS", "fd must be a non-negative integer");
    return 0;
  }
  return 1;
}

/* Offsets and lengths arrive as JS numbers; devices past 2^53 bytes do not exist yet. */
static int get_u64(napi_env env, napi_value v, uint64_t *out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok || d < 0 || d > 9007199254740991.0) {
    napi_throw_type_error(env, "EARGS", "offset/length must be a non-negative safe integer");
    return 0;
  }
  *out = (uint64_t)d;
  return 1;
}

static void free_aligned(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

/* alignedBuffer(size, alignment): a Buffer whose memory starts on an `alignment` boundary. */
static napi_value aligned_buffer(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv)) return NULL;
  uint64_t size, alignment;
  if (!get_u64(env, argv[0], &size) || !get_u64(env, argv[1], &alignment)) return NULL;
  if (size == 0 || alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) {
    napi_throw_range_error(env, "EARGS", "size must be > 0 and alignment a power of two");
    return NULL;
  }
  void *memory = NULL;
  int err = posix_memalign(&memory, (size_t)alignment, (size_t)size);
  if (err != 0) return throw_errno(env, "posix_memalign", err);
  memset(memory, 0, (size_t)size);
  napi_value buffer;
  if (napi_create_external_buffer(env, (size_t)size, memory, free_aligned, NULL, &buffer) != napi_ok) {
    free(memory);
    napi_throw_error(env, "ENOEXTERNAL", "this runtime does not allow external buffers");
    return NULL;
  }
  return buffer;
}

/* addressOf(buffer): the buffer's start address modulo 2^32, to check alignment from JS tests. */
static napi_value address_mod(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_args(env, info, 1, argv)) return NULL;
  void *data;
  size_t length;
  CHECK(napi_get_buffer_info(env, argv[0], &data, &length));
  napi_value out;
  CHECK(napi_create_uint32(env, (uint32_t)((uintptr_t)data & 0xffffffffu), &out));
  return out;
}

static napi_value device_size(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int32_t fd;
  if (!get_args(env, info, 1, argv) || !get_fd(env, argv[0], &fd)) return NULL;
  uint64_t bytes = 0;
  if (ioctl(fd, BLKGETSIZE64, &bytes) != 0) return throw_errno(env, "ioctl(BLKGETSIZE64)", errno);
  napi_value out;
  CHECK(napi_create_double(env, (double)bytes, &out));
  return out;
}

static napi_value sector_size(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int32_t fd;
  if (!get_args(env, info, 1, argv) || !get_fd(env, argv[0], &fd)) return NULL;
  int size = 0;
  if (ioctl(fd, BLKSSZGET, &size) != 0) return throw_errno(env, "ioctl(BLKSSZGET)", errno);
  napi_value out;
  CHECK(napi_create_int32(env, size, &out));
  return out;
}

static napi_value flush_buffers(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int32_t fd;
  if (!get_args(env, info, 1, argv) || !get_fd(env, argv[0], &fd)) return NULL;
  if (ioctl(fd, BLKFLSBUF, 0) != 0) return throw_errno(env, "ioctl(BLKFLSBUF)", errno);
  return NULL;
}

/* BLKDISCARD and BLKZEROOUT both take {offset, length} in bytes. */
static napi_value range_ioctl(napi_env env, napi_callback_info info, unsigned long request, const char *name) {
  napi_value argv[3];
  int32_t fd;
  uint64_t range[2];
  if (!get_args(env, info, 3, argv) || !get_fd(env, argv[0], &fd)) return NULL;
  if (!get_u64(env, argv[1], &range[0]) || !get_u64(env, argv[2], &range[1])) return NULL;
  if (ioctl(fd, request, range) != 0) return throw_errno(env, name, errno);
  return NULL;
}

static napi_value discard(napi_env env, napi_callback_info info) {
  return range_ioctl(env, info, BLKDISCARD, "ioctl(BLKDISCARD)");
}

static napi_value zero_out(napi_env env, napi_callback_info info) {
  return range_ioctl(env, info, BLKZEROOUT, "ioctl(BLKZEROOUT)");
}

/*
 * secureDiscardSupported(fd): whether the device takes BLKSECDISCARD, asked without discarding
 * anything. The range {0, 1} is not sector-aligned: since Linux 5.19 blk_ioctl_secure_erase checks
 * support first (EOPNOTSUPP) and alignment second (EINVAL), so EINVAL means supported and nothing
 * was touched. Older kernels check only discard support first, so the caller asks 5.19+ only.
 * The fd must be open for writing (EBADF otherwise, thrown).
 */
static napi_value secure_discard_supported(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int32_t fd;
  uint64_t range[2] = {0, 1};
  if (!get_args(env, info, 1, argv) || !get_fd(env, argv[0], &fd)) return NULL;
  int supported;
  if (ioctl(fd, BLKSECDISCARD, range) == 0 || errno == EINVAL) supported = 1;
  else if (errno == EOPNOTSUPP) supported = 0;
  else return throw_errno(env, "ioctl(BLKSECDISCARD)", errno);
  napi_value out;
  CHECK(napi_get_boolean(env, supported, &out));
  return out;
}

/*
 * tuneHeap(trimBytes, mmapBytes): glibc mallopt M_TRIM_THRESHOLD and M_MMAP_THRESHOLD.
 * cipher.update() allocates a fresh output buffer on every call; with glibc's defaults the heap
 * top is returned to the kernel after each free and the next allocation faults its pages in
 * again, so 60-70 % of keystream CPU time was kernel time (measured, issue 3). Keeping freed
 * memory in the arena makes AES-CTR run at ~3x the rate. Returns true when both settings took.
 */
static napi_value tune_heap(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv)) return NULL;
  uint64_t trim, mmap_threshold;
  if (!get_u64(env, argv[0], &trim) || !get_u64(env, argv[1], &mmap_threshold)) return NULL;
  if (trim > INT32_MAX || mmap_threshold > INT32_MAX) {
    napi_throw_range_error(env, "EARGS", "thresholds must fit in an int");
    return NULL;
  }
  int ok = mallopt(M_TRIM_THRESHOLD, (int)trim) == 1 && mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold) == 1;
  napi_value out;
  CHECK(napi_get_boolean(env, ok, &out));
  return out;
}

/* Shannon entropy (bits per byte) of each `block`-byte block of bytes[0, length) into out. */
static void entropy_of_blocks(const uint8_t *bytes, size_t length, uint64_t block, double *out) {
  size_t blocks = (length + block - 1) / block;
  for (size_t b = 0; b < blocks; b++) {
    const uint8_t *p = bytes + b * block;
    size_t n = length - b * block < block ? length - b * block : block;
    /* Four histograms side by side keep consecutive increments independent. */
    uint32_t h[4][256];
    memset(h, 0, sizeof h);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      h[0][p[i]]++;
      h[1][p[i + 1]]++;
      h[2][p[i + 2]]++;
      h[3][p[i + 3]]++;
    }
    for (; i < n; i++) h[0][p[i]]++;
    double bits = 0;
    for (int k = 0; k < 256; k++) {
      uint32_t c = h[0][k] + h[1][k] + h[2][k] + h[3][k];
      if (c == 0) continue;
      double q = (double)c / (double)n;
      bits -= q * log2(q);
    }
    out[b] = bits;
  }
}

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref buffer_ref;
  napi_ref out_ref;
  const uint8_t *bytes;
  size_t length;
  uint64_t block;
  double *out;
  size_t blocks;
} entropy_job;

/* Checks blockEntropy's arguments; fills the job's pointers. Returns 0 after throwing. */
static int entropy_args(napi_env env, napi_value *argv, entropy_job *job) {
  void *data;
  if (napi_get_buffer_info(env, argv[0], &data, &job->length) != napi_ok || !get_u64(env, argv[1], &job->block)) {
    napi_throw_type_error(env, "EARGS", "blockEntropy(buffer, blockSize > 0, Float64Array)");
    return 0;
  }
  napi_typedarray_type type;
  size_t count;
  void *out;
  if (napi_get_typedarray_info(env, argv[2], &type, &count, &out, NULL, NULL) != napi_ok || job->block == 0 || type != napi_float64_array) {
    napi_throw_type_error(env, "EARGS", "blockEntropy(buffer, blockSize > 0, Float64Array)");
    return 0;
  }
  job->bytes = data;
  job->out = out;
  job->blocks = (job->length + job->block - 1) / job->block;
  if (job->blocks > count) {
    napi_throw_range_error(env, "EARGS", "out holds fewer entries than the buffer has blocks");
    return 0;
  }
  return 1;
}

/*
 * blockEntropy(buffer, blockSize, out): Shannon entropy in bits per byte of each blockSize block
 * of buffer (the last may be shorter), into the Float64Array out; returns the number of blocks.
 * The validate reader checks every 4 KiB block of a drive a crypto erase or a random pass left
 * this way: the byte histogram in C keeps up with the drive, where the same loop in JS read a
 * fraction of dd's speed.
 */
static napi_value block_entropy(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!get_args(env, info, 3, argv)) return NULL;
  entropy_job job;
  if (!entropy_args(env, argv, &job)) return NULL;
  entropy_of_blocks(job.bytes, job.length, job.block, job.out);
  napi_value result;
  CHECK(napi_create_double(env, (double)job.blocks, &result));
  return result;
}

static void entropy_execute(napi_env env, void *data) {
  (void)env;
  entropy_job *job = data;
  entropy_of_blocks(job->bytes, job->length, job->block, job->out);
}

static void entropy_complete(napi_env env, napi_status status, void *data) {
  entropy_job *job = data;
  napi_value result;
  if (status == napi_ok && napi_create_double(env, (double)job->blocks, &result) == napi_ok) napi_resolve_deferred(env, job->deferred, result);
  else {
    napi_value message, error;
    napi_create_string_utf8(env, "blockEntropyAsync failed", NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, NULL, message, &error);
    napi_reject_deferred(env, job->deferred, error);
  }
  napi_delete_reference(env, job->buffer_ref);
  napi_delete_reference(env, job->out_ref);
  napi_delete_async_work(env, job->work);
  free(job);
}

/*
 * blockEntropyAsync(buffer, blockSize, out): blockEntropy on libuv's thread pool, resolving to the
 * block count. Several slices of one chunk then run on several cores beside the next read. The
 * buffer and out are held (references) until it completes; the caller must not reuse them before.
 */
static napi_value block_entropy_async(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!get_args(env, info, 3, argv)) return NULL;
  entropy_job *job = calloc(1, sizeof *job);
  if (!job) return throw_errno(env, "blockEntropyAsync", ENOMEM);
  if (!entropy_args(env, argv, job)) {
    free(job);
    return NULL;
  }
  napi_value promise, name;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok || napi_create_reference(env, argv[0], 1, &job->buffer_ref) != napi_ok ||
      napi_create_reference(env, argv[2], 1, &job->out_ref) != napi_ok || napi_create_string_utf8(env, "blockEntropy", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, entropy_execute, entropy_complete, job, &job->work) != napi_ok || napi_queue_async_work(env, job->work) != napi_ok) {
    free(job);
    napi_throw_error(env, "EINTERNAL", "blockEntropyAsync: N-API call failed");
    return NULL;
  }
  return promise;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"alignedBuffer", NULL, aligned_buffer, NULL, NULL, NULL, napi_enumerable, NULL},
      {"addressMod", NULL, address_mod, NULL, NULL, NULL, napi_enumerable, NULL},
      {"deviceSize", NULL, device_size, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sectorSize", NULL, sector_size, NULL, NULL, NULL, napi_enumerable, NULL},
      {"flushBuffers", NULL, flush_buffers, NULL, NULL, NULL, napi_enumerable, NULL},
      {"discard", NULL, discard, NULL, NULL, NULL, napi_enumerable, NULL},
      {"zeroOut", NULL, zero_out, NULL, NULL, NULL, napi_enumerable, NULL},
      {"secureDiscardSupported", NULL, secure_discard_supported, NULL, NULL, NULL, napi_enumerable, NULL},
      {"tuneHeap", NULL, tune_heap, NULL, NULL, NULL, napi_enumerable, NULL},
      {"blockEntropy", NULL, block_entropy, NULL, NULL, NULL, napi_enumerable, NULL},
      {"blockEntropyAsync", NULL, block_entropy_async, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  CHECK(napi_define_properties(env, exports, sizeof props / sizeof props[0], props));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
