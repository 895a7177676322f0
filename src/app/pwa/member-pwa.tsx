import { lazy, Suspense, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { setReachable, useOnline } from '@/hooks/use-online';
import { useAuth } from '@/lib/auth/auth-context';
import { readInstallOffer, rememberInstallOffer } from '@/lib/browser-storage';
import { installRoute, isBookedResult, shouldOffer, type BeforeInstallPromptEvent, type InstallRoute } from './install-offer-logic';
import { copyRefreshState, keepSnapshot, lastReadAt, restoreSnapshot } from './offline-snapshot';
import { pageCopyKeeper } from './page-copy';
import { OfflineBanner } from './offline-banner';
import { registerServiceWorker } from './register-service-worker';

// Both are needed only later (a booking made, ten seconds after the page's reads), so neither is
// part of a member page's first load: the timetable's reader brings the schedule's request module.
const InstallOffer = lazy(() => import('./install-offer').then((m) => ({ default: m.InstallOffer })));
const readTwoWeeks: typeof import('./two-weeks').readTwoWeeks = (...args) => import('./two-weeks').then((m) => m.readTwoWeeks(...args));

/** After the page's own reads: the extra timetable pages never compete with what the member opened. */
const TWO_WEEKS_AFTER_MS = 10_000;

/** While the site does not answer, it is asked again this often. */
const PROBE_EVERY_MS = 10_000;

/**
 * Whether the site answers: a request no cache can answer (the worker's precache holds the
 * manifest without this parameter, so it goes to the network).
 */
async function siteAnswers(): Promise<boolean> {
  try {
    const response = await fetch(`/manifest.webmanifest?reach=${Date.now()}`, { cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

/** Follows whether the site answers: at start, when the browser says the network changed, and every few seconds while it does not. */
function useReachability(online: boolean): void {
  useEffect(() => {
    // The manifest exists in the production build only (dev and tests have no worker either).
    if (!import.meta.env.PROD) return;
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      const answers = await siteAnswers();
      if (!active) return;
      setReachable(answers);
      if (!answers) timer = setTimeout(() => void check(), PROBE_EVERY_MS);
    };
    void check();
    return () => {
      active = false;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [online]);
}

const noCache = () => () => undefined;
const noReadAt = () => null;

function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/** When the member's data was last read, following the cache. */
function useLastReadAt(client: QueryClient | undefined): number | null {
  return useSyncExternalStore(
    // The cache announces a query as another screen creates it, in that screen's render: answer
    // after it (a microtask), or React warns of an update to this component during another's render.
    client ? (onChange) => client.getQueryCache().subscribe(() => queueMicrotask(onChange)) : noCache,
    client ? () => lastReadAt(client) : noReadAt,
    noReadAt,
  );
}

/**
 * The installable app on a member's pages (decision 0019), mounted by the root layout
 * while someone is signed in: registers the service worker, keeps the member's data readable
 * offline, says so when offline, and offers the home screen once after their first booking.
 */
export function MemberPwa() {
  const { user, member, loading } = useAuth();
  const client = useContext(QueryClientContext);
  const online = useOnline();
  useReachability(online);
  const { pathname } = useLocation();
  const userId = user?.id ?? null;
  const memberId = member?.id ?? null;

  // A new deployment took over: reload when nothing is lost, at the next change of screen or
  // while the app is in the background.
  const [updatedAt, setUpdatedAt] = useState<string | null>(null);
  const pathRef = useRef(pathname);
  useEffect(() => {
    pathRef.current = pathname;
  }, [pathname]);
  useEffect(() => registerServiceWorker(() => setUpdatedAt(pathRef.current)), []);
  useEffect(() => {
    if (updatedAt !== null && pathname !== updatedAt) window.location.reload();
  }, [updatedAt, pathname]);
  useEffect(() => {
    if (updatedAt === null) return;
    const onHidden = () => {
      if (document.visibilityState === 'hidden') window.location.reload();
    };
    document.addEventListener('visibilitychange', onHidden);
    return () => document.removeEventListener('visibilitychange', onHidden);
  }, [updatedAt]);

  // The saved copy: written after each read, put back where the cache lacks it once offline.
  // Written only once GoTrue has confirmed the session (decision 0111): reads answered for a
  // stored session it then refuses are not this member's data.
  const confirmedUserId = loading ? null : userId;
  useEffect(() => {
    if (!client || !confirmedUserId) return;
    // The page as it now shows, for the worker to paint next time (decision 0112): not while
    // some of it still shows the saved data being read again.
    const page = pageCopyKeeper(confirmedUserId, () => copyRefreshState(client) !== 'updating');
    const stopSaving = keepSnapshot(client, confirmedUserId, page.save);
    return () => {
      stopSaving();
      page.stop();
    };
  }, [client, confirmedUserId]);
  useEffect(() => {
    if (!online && client && userId) restoreSnapshot(client, userId);
  }, [online, client, userId]);
  useEffect(() => {
    if (!online || !client || !memberId) return;
    const timer = setTimeout(() => void readTwoWeeks(client, memberId).catch(() => undefined), TWO_WEEKS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [online, client, memberId]);
  const readAt = useLastReadAt(client);

  // The install offer: the browser's prompt is kept for the moment a booking succeeds.
  const promptRef = useRef<BeforeInstallPromptEvent | null>(null);
  const [offer, setOffer] = useState<Exclude<InstallRoute, 'none'> | null>(null);
  useEffect(() => {
    const onPrompt = (event: Event) => {
      event.preventDefault(); // no browser banner of its own: the offer comes after a booking
      promptRef.current = event as BeforeInstallPromptEvent;
    };
    const onInstalled = () => {
      rememberInstallOffer('installed');
      setOffer(null);
    };
    window.addEventListener('beforeinstallprompt', onPrompt);
    window.addEventListener('appinstalled', onInstalled);
    return () => {
      window.removeEventListener('beforeinstallprompt', onPrompt);
      window.removeEventListener('appinstalled', onInstalled);
    };
  }, []);
  useEffect(() => {
    if (!client) return;
    // Every booking goes through useBookClass's mutation, which resolves with the server's answer.
    return client.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success' || !isBookedResult(event.action.data)) return;
      const route = installRoute({
        userAgent: navigator.userAgent,
        platform: navigator.platform,
        maxTouchPoints: navigator.maxTouchPoints,
        standalone: isStandalone(),
        canPrompt: promptRef.current !== null,
      });
      if (route === 'none' || !shouldOffer({ booked: true, route, outcome: readInstallOffer() })) return;
      rememberInstallOffer('offered');
      setOffer(route);
    });
  }, [client]);

  function dismiss() {
    rememberInstallOffer('dismissed');
    setOffer(null);
  }
  async function install() {
    const prompt = promptRef.current;
    promptRef.current = null; // a prompt can be shown once
    setOffer(null);
    if (!prompt) return;
    try {
      await prompt.prompt();
      const { outcome } = await prompt.userChoice;
      rememberInstallOffer(outcome === 'accepted' ? 'installed' : 'dismissed');
    } catch {
      rememberInstallOffer('dismissed');
    }
  }

  return (
    <>
      <OfflineBanner offline={!online} readAt={readAt} />
      {offer && (
        <Suspense fallback={null}>
          <InstallOffer route={offer} onInstall={() => void install()} onDismiss={dismiss} />
        </Suspense>
      )}
    </>
  );
}
