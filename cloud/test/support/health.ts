/** A graded drive's health as an agent sends it (issue 30 item 6): worn (C), with a slow zone in its profile. */
export function wornHealth() {
  const profile_mbps: (number | null)[] = Array.from({ length: 100 }, (_, i) => Math.round((180 - i * 0.8) * 10) / 10);
  profile_mbps[61] = 31.5;
  profile_mbps[62] = 29.8;
  profile_mbps[63] = 33.1;
  return {
    grade: 'C' as const,
    reasons: [
      '8 worn-out sector(s) have been replaced by spares (rule: reallocated sectors (ATA 5) ≥ 1 gives C)',
      "its slowest zone (3 regions in a row) wrote at 24% of its usual speed (33.1 of 140.4 MB/s) (rule: slowest zone's speed (% of the median) ≤ 30 gives C)",
      'it has been powered on for 23,410 hours (about 2.7 years) (rule: power-on hours ≥ 10,000 gives B)',
    ],
    smart_before: { protocol: 'ATA' as const, passed: true, power_on_hours: 23_410, reallocated_sectors: 8, pending_sectors: 0, offline_uncorrectable: 0, crc_errors: 0 },
    smart_after: { protocol: 'ATA' as const, passed: true, power_on_hours: 23_412, reallocated_sectors: 8, pending_sectors: 0, offline_uncorrectable: 0, crc_errors: 0 },
    region_bytes: 5_001_000_000,
    profile_mbps,
    io_errors: 0,
    retries: 0,
    self_test: { outcome: 'passed' as const, detail: 'Completed without error' },
  };
}
