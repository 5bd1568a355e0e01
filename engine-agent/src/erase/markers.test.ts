import { describe, expect, it } from 'vitest';
import { describeMarkers, MARKER_COUNT, markerLbas, markersGone, type MarkerCheck } from './markers.js';

describe('the marker LBAs of a firmware erase', () => {
  it('are 256 unique, sorted LBAs inside the device, the first and the last block among them', () => {
    const sut = markerLbas(1_000_000);
    expect(sut).toHaveLength(MARKER_COUNT);
    expect(new Set(sut).size).toBe(MARKER_COUNT);
    expect(sut).toEqual([...sut].sort((a, b) => a - b));
    expect(sut[0]).toBe(0);
    expect(sut.at(-1)).toBe(999_999);
    expect(sut.every((lba) => Number.isInteger(lba) && lba >= 0 && lba < 1_000_000)).toBe(true);
  });

  it('spread half of them evenly over the device', () => {
    const sut = new Set(markerLbas(1_000_000));
    for (let i = 0; i < 128; i++) expect(sut.has(Math.floor((i * 999_999) / 127))).toBe(true);
  });

  it('draw the other half at random, so two erases do not share them', () => {
    const a = markerLbas(1e12);
    const b = new Set(markerLbas(1e12));
    expect(a.filter((lba) => !b.has(lba))).toHaveLength(128);
  });

  it('cover every block of a device with fewer blocks than markers', () => {
    expect(markerLbas(100)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('refuse a device without blocks', () => {
    expect(() => markerLbas(0)).toThrow(RangeError);
  });
});

describe('the marker check in the words a customer reads', () => {
  const check = (over: Partial<MarkerCheck>): MarkerCheck => ({ total: 256, survived: 0, unreadable: 0, filled: 256, sha256: 'x', ...over });

  it('passes when every marker is gone, whether zeros or the other data a crypto erase leaves', () => {
    expect(markersGone(check({}))).toBe(true);
    expect(describeMarkers(check({}))).toBe('256 of 256 test patterns written before the erase were gone after it (all read back as a uniform fill)');
    expect(describeMarkers(check({ filled: 0 }))).toBe('256 of 256 test patterns written before the erase were gone after it (all read back as unrelated data, as a cryptographic erase leaves them)');
  });

  it('fails when every marker survives, as on a drive whose firmware lies', () => {
    const sut = check({ survived: 256, filled: 0, firstSurvivor: 0 });
    expect(markersGone(sut)).toBe(false);
    expect(describeMarkers(sut)).toBe('256 of 256 test patterns written before the erase were still there after it (the first at LBA 0)');
  });

  it('fails when one marker survives', () => {
    const sut = check({ survived: 1, filled: 255, firstSurvivor: 4242 });
    expect(markersGone(sut)).toBe(false);
    expect(describeMarkers(sut)).toBe('1 of 256 test patterns written before the erase were still there after it (the first at LBA 4242); 255 of 256 were gone');
  });

  it('fails when a marker cannot be read back: nothing proves it erased', () => {
    const sut = check({ unreadable: 3, filled: 253 });
    expect(markersGone(sut)).toBe(false);
    expect(describeMarkers(sut)).toBe('3 of 256 test patterns could not be read back after the erase; 253 of 256 were gone');
  });
});
