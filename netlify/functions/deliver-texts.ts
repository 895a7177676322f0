import { json } from '../lib/http';
import { ConfigError, readServerEnv } from '../lib/server-env';
import { deliverTexts } from '../lib/sms/deliver-texts';
import { readSmsEnv } from '../lib/sms/sms-env';
import { twilioProvider } from '../lib/sms/sms-provider';
import { postgrestTextStore } from '../lib/sms/text-store';
import { serviceDb } from '../lib/supabase-server';

/**
 * Netlify runs this every minute (a scheduled function, like deliver-emails and deliver-pushes):
 * it sends the texts due as of now through Twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN,
 * TWILIO_FROM), asking Twilio to report each delivery to the sms-webhook function. Quiet hours,
 * expiry and the daily cap are decided in the database (dequeue_texts, decision 0041).
 */
export const config = { schedule: '* * * * *' };

export default async function deliverTextsNow(): Promise<Response> {
  try {
    const env = readServerEnv();
    const report = await deliverTexts({
      store: postgrestTextStore(serviceDb(env)),
      provider: twilioProvider(readSmsEnv()),
      now: new Date(),
      statusCallback: env.siteUrl.startsWith('https://') ? `${env.siteUrl}/.netlify/functions/sms-webhook` : undefined,
    });
    if (report.sent || report.retrying || report.failed) {
      console.log(`[deliver-texts] sent ${report.sent}, retrying ${report.retrying}, failed ${report.failed}`);
    }
    return json(report);
  } catch (error) {
    console.error('[deliver-texts] failed', error);
    return json({ error: 'delivery_failed', message: 'Could not deliver the queued texts.' }, error instanceof ConfigError ? 503 : 500);
  }
}
