import { describe, expect, it } from 'vitest';
import { installRoute, isBookedResult, isIos, shouldOffer } from './install-offer-logic';

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD_AS_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

const facts = (over: Partial<Parameters<typeof installRoute>[0]> = {}) => ({
  userAgent: ANDROID,
  platform: 'Linux armv8l',
  maxTouchPoints: 5,
  standalone: false,
  canPrompt: false,
  ...over,
});

describe('install offer rules', () => {
  it("uses the browser's prompt where it offered one, and Add to Home Screen steps on iOS", () => {
    expect(installRoute(facts({ canPrompt: true }))).toBe('prompt');
    expect(installRoute(facts({ userAgent: IPHONE, platform: 'iPhone' }))).toBe('ios');
    expect(installRoute(facts({ userAgent: IPAD_AS_MAC, platform: 'MacIntel', maxTouchPoints: 5 }))).toBe('ios');
  });

  it('offers nothing inside the installed app, or where the browser cannot install', () => {
    expect(installRoute(facts({ canPrompt: true, standalone: true }))).toBe('none');
    expect(installRoute(facts({ userAgent: IPHONE, platform: 'iPhone', standalone: true }))).toBe('none');
    expect(installRoute(facts())).toBe('none'); // Chromium that has not found the page installable, Firefox
    expect(isIos({ userAgent: IPAD_AS_MAC, platform: 'MacIntel', maxTouchPoints: 0 })).toBe(false); // a real Mac
  });

  it('offers once, after a booking: never again once offered, turned down or installed', () => {
    expect(shouldOffer({ booked: true, route: 'prompt', outcome: null })).toBe(true);
    expect(shouldOffer({ booked: true, route: 'ios', outcome: null })).toBe(true);
    expect(shouldOffer({ booked: false, route: 'prompt', outcome: null })).toBe(false);
    expect(shouldOffer({ booked: true, route: 'none', outcome: null })).toBe(false);
    for (const outcome of ['offered', 'dismissed', 'installed'] as const)
      expect(shouldOffer({ booked: true, route: 'prompt', outcome })).toBe(false);
  });

  it("counts a booking the server made, not a payment hold or another mutation's answer", () => {
    expect(isBookedResult({ status: 'booked', booking_id: 'b1', class_id: 'c1' })).toBe(true);
    expect(isBookedResult({ status: 'payment_required', booking_id: null })).toBe(false);
    expect(isBookedResult({ position: 2 })).toBe(false);
    expect(isBookedResult(undefined)).toBe(false);
  });
});
