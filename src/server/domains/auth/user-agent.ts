/** A browser and platform read from a user agent, as NodeBB's sessions list names them. */
export interface AgentInfo {
  browser: string;
  version: string;
  platform: string;
}

const BROWSERS: [string, RegExp][] = [
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /OPR\/([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /Version\/([\d.]+).*Safari\//],
];

const PLATFORMS: [string, RegExp][] = [
  ['Android', /Android/],
  ['iOS', /iPhone|iPad|iPod/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['ChromeOS', /CrOS/],
  ['Linux', /Linux/],
];

/** Browser, major.minor version and platform of a user agent ("Unknown" when not recognised). */
export function describeUserAgent(ua: string): AgentInfo {
  let browser = 'Unknown';
  let version = '';
  for (const [name, re] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = name;
      version = m[1]!.split('.').slice(0, 2).join('.');
      break;
    }
  }
  if (browser === 'Unknown' && /HeadlessChrome\/([\d.]+)/.test(ua)) browser = 'Chrome';
  const platform = PLATFORMS.find(([, re]) => re.test(ua))?.[0] ?? 'Unknown';
  return { browser, version, platform };
}
