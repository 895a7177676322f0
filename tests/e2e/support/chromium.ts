import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags for a quiet, offline, headless Debian chromium (no sandbox: CI runs as root). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The system browser: CHROME_PATH, then Debian's /usr/bin/chromium, then PATH. Never downloads one. */
export function findChromium(): string | null {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    const found = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
    return found || null;
  } catch {
    return null;
  }
}

export function requireChromium(): string {
  const path = findChromium();
  if (!path) {
    throw new Error('No chromium found: set CHROME_PATH or install Debian chromium (apt-get install -y --no-install-recommends chromium).');
  }
  return path;
}

export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: requireChromium(), headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
