import { requireChromium } from './support/chromium';
import { publishApp, serveApp } from './support/environment';

/**
 * Once per run, in the runner's process: the production build (cached, see support/build.ts)
 * served like Netlify serves it, and one fresh in-memory local stack with the demo seed. Test
 * workers reach both through the published variables. The returned function is the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  console.log(`chromium: ${requireChromium()}`);
  const app = await serveApp();
  publishApp(app);
  return () => app.stop();
}
