import { describe, expect, it } from 'vitest';
import { stationBayOf, stationToolComponents } from './station-components.js';

describe('the station bay in tool_components', () => {
  it('travels with the tool version and reads back', () => {
    const components = stationToolComponents('erasure-agent 0.1.0', { bay: 'Bay 3', chassis: 'Rack A backplane' });
    expect(components).toBe('erasure-agent 0.1.0; bay=Bay 3; chassis=Rack A backplane');
    expect(stationBayOf(components)).toEqual({ bay: 'Bay 3', chassis: 'Rack A backplane' });
  });

  it('keeps a label readable when it holds the separator', () => {
    expect(stationBayOf(stationToolComponents('t', { bay: 'Top; left', chassis: 'R;1' }))).toEqual({ bay: 'Top, left', chassis: 'R,1' });
  });

  it('finds no bay in an engine wipe', () => {
    expect(stationBayOf('erasure-agent 0.1.0')).toBeUndefined();
    expect(stationBayOf(null)).toBeUndefined();
  });
});
