import { studioSettingsSql } from '../supabase/local/db/studio-settings.ts';

// `npm run studio:sql`: the SQL that gives a hosted database the studio identity of
// studio.config.json (README, "The studio's identity"). The local stack applies it by itself.
console.log(studioSettingsSql());
