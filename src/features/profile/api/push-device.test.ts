import { afterEach, describe, expect, it, vi } from 'vitest';
import { getPushDeviceState, WORKER_WAIT_MS } from './push-device';

// The app registers its worker after its first paint (app/pwa), so a page opened straight onto
// Edit Profile can ask about this device before the worker exists. A build waits for it; the
// answer "unsupported" is for a browser that really has none.

type Worker = 'registered' | 'late' | 'never';

function browserWithPush(worker: Worker) {
  const registration = { pushManager: { getSubscription: () => Promise.resolve(null) } };
  let registered = worker === 'registered';
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission: 'default' });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: () => Promise.resolve(registered ? registration : undefined),
      // `ready` settles once a worker is active for the page; a refused registration never settles it.
      ready: new Promise((resolve) => {
        if (worker === 'registered') resolve(registration);
        if (worker === 'late')
          setTimeout(() => {
            registered = true;
            resolve(registration);
          }, 300);
      }),
    },
  });
}

describe('getPushDeviceState', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('in a build, waits for the app’s worker that is not registered yet, then answers for it', async () => {
    vi.stubEnv('PROD', true);
    vi.useFakeTimers();
    browserWithPush('late');
    const answer = getPushDeviceState();
    await vi.advanceTimersByTimeAsync(300);
    await expect(answer).resolves.toBe('off');
  });

  it('in a build whose worker never comes, answers unsupported once the wait is over, not before', async () => {
    vi.stubEnv('PROD', true);
    vi.useFakeTimers();
    browserWithPush('never');
    let settled: string | undefined;
    const answer = getPushDeviceState().then((state) => (settled = state));
    await vi.advanceTimersByTimeAsync(WORKER_WAIT_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await answer;
    expect(settled).toBe('unsupported');
  });

  it('answers at once for a worker already registered', async () => {
    vi.stubEnv('PROD', true);
    browserWithPush('registered');
    await expect(getPushDeviceState()).resolves.toBe('off');
  });

  it('outside a build (dev, tests), where the app registers no worker, answers unsupported without waiting', async () => {
    vi.useFakeTimers();
    browserWithPush('never');
    await expect(getPushDeviceState()).resolves.toBe('unsupported');
  });

  it('answers unsupported in a browser without the Push API', async () => {
    vi.stubEnv('PROD', true);
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: {} });
    await expect(getPushDeviceState()).resolves.toBe('unsupported');
  });
});
