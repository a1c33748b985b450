import { describe, expect, it } from 'vitest';
import { deviceName } from '../../src/lib/device-name';

describe('deviceName', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      { browser: 'Chrome', os: 'Linux' },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
      { browser: 'Firefox', os: 'Windows' },
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
      { browser: 'Safari', os: 'iOS' },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0',
      { browser: 'Microsoft Edge', os: 'Windows' },
    ],
  ])('names the browser and system of %s', (userAgent, expected) => {
    expect(deviceName(userAgent)).toEqual(expected);
  });

  it('names nothing it does not know', () => {
    expect(deviceName('curl/8.5.0')).toEqual({});
    expect(deviceName(undefined)).toEqual({});
  });
});
