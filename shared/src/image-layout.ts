/**
 * Where the boot image keeps what personalizes it, on the ISO 9660 filesystem of the medium
 * (live-boot mounts it at /run/live/medium). The image build, `erasure-iso personalize`, the
 * cloud's downloads and the agent in the image all read these names from here.
 */
export const IMAGE_VOLUME_ID = 'ERASURE';

/**
 * The label of a station's data volume (a partition on the boot stick or a small disk in the
 * station): the image mounts it at the agent's DATA_DIR so kept results and settings survive a
 * reboot, and the agent never erases it.
 */
export const DATA_VOLUME_LABEL = 'ERASURE-DATA';

export const IMAGE_FILES = {
  /** The device token (compact JWS), one line. */
  deviceToken: 'erasure/device-token',
  /** The gateway's base URL, one line. */
  gatewayUrl: 'erasure/gateway-url',
  /** GRUB script sourced before the menu: sets `erasure_args`, extra kernel options of every entry. */
  bootConfig: 'erasure/boot.cfg',
  /** What was built: version, layer keys, build time (JSON). */
  buildInfo: 'erasure/image.json',
} as const;

/** Where live-boot mounts the medium it booted from. */
export const LIVE_MEDIUM_DIR = '/run/live/medium';
