import Bowser from 'bowser';

export interface DeviceName {
  browser?: string;
  os?: string;
}

/**
 * Browser and operating system named in a user-agent string ("Chrome", "Linux"), for the
 * profile's session list. A maintained parser, because user agents lie in layers (every
 * Chromium says Safari, Edge says Chrome) that a hand-written pattern gets wrong.
 */
export function deviceName(userAgent: string | undefined): DeviceName {
  if (!userAgent) return {};
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.trim();
  const os = parsed.os.name?.trim();
  return { ...(browser ? { browser } : {}), ...(os ? { os } : {}) };
}
