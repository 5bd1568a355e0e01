import { describe, expect, it } from 'vitest';
import { isAllowedNavigation, isAllowedPermission } from './navigation.js';

const agent = 'http://127.0.0.1:7070/';

describe('the navigation lock', () => {
  it.each([
    ['http://127.0.0.1:7070/#/drives', true],
    ['http://127.0.0.1:7070/api/state', true],
    ['http://127.0.0.1:7071/', false],
    ['http://localhost:7070/', false],
    ['https://example.com/', false],
    ['file:///etc/shadow', false],
    ['devtools://devtools/bundled/inspector.html', false],
    ['javascript:alert(1)', false],
    ['', false],
  ])('%s allowed: %s', (target, allowed) => {
    expect(isAllowedNavigation(target, agent)).toBe(allowed);
  });

  it('grants only camera/microphone, and only to the agent’s page', () => {
    expect(isAllowedPermission('media', 'http://127.0.0.1:7070/', agent)).toBe(true);
    expect(isAllowedPermission('media', 'https://evil.example/', agent)).toBe(false);
    for (const p of ['geolocation', 'notifications', 'clipboard-read', 'openExternal', 'usb', 'serial', 'hid']) {
      expect(isAllowedPermission(p, agent, agent)).toBe(false);
    }
  });
});
