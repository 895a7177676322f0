import type { InstallOfferOutcome } from '@/lib/browser-storage';

/**
 * When and how the app offers itself for the home screen: once, after the member's
 * first successful booking on this browser, never again once answered, and never inside the
 * installed app. Pure, so the rules are tested without a browser.
 */

/** How this browser installs: its own prompt (Chrome, Edge, Samsung Internet on Android and desktop), Add to Home Screen by hand (iOS), or not at all. */
export type InstallRoute = 'prompt' | 'ios' | 'none';

/** Chromium's event, which TypeScript's DOM types do not have. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

type BrowserFacts = {
  userAgent: string;
  platform: string;
  maxTouchPoints: number;
  /** display-mode: standalone, or Safari's navigator.standalone: already opened as the app. */
  standalone: boolean;
  /** A beforeinstallprompt event was kept for later. */
  canPrompt: boolean;
};

/** iPhone, iPod, iPad (an iPad asks for the desktop site and calls itself a Mac with touch). */
export const isIos = ({ userAgent, platform, maxTouchPoints }: Pick<BrowserFacts, 'userAgent' | 'platform' | 'maxTouchPoints'>): boolean =>
  /iPad|iPhone|iPod/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);

export function installRoute(facts: BrowserFacts): InstallRoute {
  if (facts.standalone) return 'none';
  if (facts.canPrompt) return 'prompt';
  // On iOS every browser adds to the home screen through its Share menu (Safari from the start, the others since iOS 16.4).
  if (isIos(facts)) return 'ios';
  return 'none';
}

/** Whether to show the offer now: a booking has just succeeded, the browser can install, and this browser was never offered it. */
export function shouldOffer({
  booked,
  route,
  outcome,
}: {
  booked: boolean;
  route: InstallRoute;
  outcome: InstallOfferOutcome | null;
}): boolean {
  return booked && route !== 'none' && outcome === null;
}

/** A `book_class` / `book_with_credit` answer that booked (not a payment hold): what useBookClass's mutation resolves with. */
export function isBookedResult(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const { status, booking_id } = data as { status?: unknown; booking_id?: unknown };
  return status === 'booked' && typeof booking_id === 'string';
}
