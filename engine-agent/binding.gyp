{
  "targets": [
    {
      "target_name": "erasure_blockdev",
      "sources": ["native/blockdev.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "defines": ["NAPI_VERSION=8"],
      "libraries": ["-lm"]
    }
  ]
}
