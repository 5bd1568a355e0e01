import { describe, expect, it } from 'vitest';
import { KioskOptionsError, parseKioskOptions } from './options.js';

describe('parseKioskOptions', () => {
  it('defaults to the agent on 127.0.0.1:7070 in kiosk mode with Debian’s Chromium', () => {
    const sut = parseKioskOptions([], {});
    expect(sut.agentUrl.href).toBe('http://127.0.0.1:7070/');
    expect(sut.windowed).toBe(false);
    expect(sut.chromiumPath).toBe('/usr/bin/chromium');
  });

  it('takes --url over ERASURE_AGENT_URL and keeps only the origin', () => {
    expect(parseKioskOptions(['--url', 'http://localhost:9000/some/page'], { ERASURE_AGENT_URL: 'http://127.0.0.1:1' }).agentUrl.href).toBe('http://localhost:9000/');
    expect(parseKioskOptions([], { ERASURE_AGENT_URL: 'http://[::1]:7071' }).agentUrl.href).toBe('http://[::1]:7071/');
  });

  it.each(['http://192.168.1.10:7070', 'https://127.0.0.1:7070', 'file:///etc/passwd', 'not a url'])('refuses %s: the window may only show the loopback agent', (url) => {
    expect(() => parseKioskOptions(['--url', url], {})).toThrow(KioskOptionsError);
  });

  it('tolerates switches Electron adds to argv', () => {
    expect(parseKioskOptions(['--no-sandbox', '--windowed'], {}).windowed).toBe(true);
  });
});
