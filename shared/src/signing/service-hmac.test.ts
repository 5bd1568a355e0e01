import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSignature, signServiceRequest, verifyServiceRequest } from './service-hmac.js';

const SECRET = 's3cret';
const NOW = 1_763_812_800;
const body = Buffer.from('{"jti":"abc"}');

const request = (overrides: Partial<{ timestamp: string; signature: string; rawBody: Uint8Array | string }> = {}) => {
  const headers = signServiceRequest(SECRET, body, NOW);
  return {
    timestamp: headers['x-service-timestamp'],
    signature: headers['x-service-signature'],
    rawBody: body,
    ...overrides,
  };
};

describe('service HMAC (spec 5.2)', () => {
  it('signs `<timestamp>.<raw body>` as sha256= lowercase hex', () => {
    const independent = createHmac('sha256', SECRET).update(`${NOW}.{"jti":"abc"}`).digest('hex');
    expect(signServiceRequest(SECRET, body, NOW)).toEqual({
      'x-service-timestamp': String(NOW),
      'x-service-signature': `sha256=${independent}`,
    });
  });

  it('accepts its own fresh signature', () => {
    expect(verifyServiceRequest(SECRET, request(), NOW)).toBe(true);
  });

  it.each([
    ['stale by 301 s', NOW + 301, true],
    ['301 s in the future', NOW - 301, true],
    ['exactly 300 s old', NOW + 300, false],
  ])('a timestamp %s is refused: %s', (_name, now, refused) => {
    expect(verifyServiceRequest(SECRET, request(), now)).toBe(!refused);
  });

  it.each([
    ['13 digits', '1'.padStart(13, '0')],
    ['non-digits', `${NOW}a`],
    ['a decimal point', `${NOW}.0`],
    ['a minus sign', `-${NOW}`],
    ['blank', ''],
  ])('refuses a timestamp with %s', (_name, timestamp) => {
    const signature = hmacSignature(SECRET, timestamp, body);
    expect(verifyServiceRequest(SECRET, request({ timestamp, signature }), NOW)).toBe(false);
  });

  it('refuses a signature over another body', () => {
    expect(verifyServiceRequest(SECRET, request({ rawBody: '{"jti":"abd"}' }), NOW)).toBe(false);
  });

  it('refuses a body that differs only in whitespace: the exact raw bytes count', () => {
    expect(verifyServiceRequest(SECRET, request({ rawBody: '{"jti": "abc"}' }), NOW)).toBe(false);
  });

  it('refuses missing pieces, another secret, and an empty secret', () => {
    expect(verifyServiceRequest(SECRET, request({ signature: undefined as unknown as string }), NOW)).toBe(false);
    expect(verifyServiceRequest(SECRET, request({ timestamp: undefined as unknown as string }), NOW)).toBe(false);
    expect(verifyServiceRequest('other', request(), NOW)).toBe(false);
    expect(verifyServiceRequest('', request(), NOW)).toBe(false);
  });

  it('refuses uppercase hex and a missing sha256= prefix', () => {
    const good = request().signature;
    expect(verifyServiceRequest(SECRET, request({ signature: good.toUpperCase() }), NOW)).toBe(false);
    expect(verifyServiceRequest(SECRET, request({ signature: good.slice(7) }), NOW)).toBe(false);
  });
});
