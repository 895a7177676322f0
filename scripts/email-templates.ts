/**
 * Writes supabase/templates/*.html (the Supabase Auth emails) from the React Email template in
 * netlify/lib/email/templates/auth-email.tsx, so auth emails share the booking emails' frame:
 *
 *   npm run email:templates          rewrite the files
 *   npm run email:templates -- --check   fail if a committed file is out of date (CI)
 *
 * The subjects live in netlify/lib/email/auth-templates.ts and supabase/config.toml (checked too).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { AUTH_TEMPLATES, renderAuthTemplate } from '../netlify/lib/email/auth-templates';
import { repoRoot } from '../supabase/local/config';

export async function staleAuthTemplates(write: boolean): Promise<string[]> {
  const stale: string[] = [];
  const configPath = `${repoRoot}supabase/config.toml`;
  const committed = readFileSync(configPath, 'utf8');
  let config = committed;
  for (const t of AUTH_TEMPLATES) {
    const html = `${await renderAuthTemplate(t.kind)}\n`;
    const path = `${repoRoot}${t.file}`;
    if (!existsSync(path) || readFileSync(path, 'utf8') !== html) {
      if (write) writeFileSync(path, html);
      else stale.push(t.file);
    }
    const section = `[auth.email.template.${t.kind}]\nsubject = ${JSON.stringify(t.subject)}\ncontent_path = "./${t.file}"`;
    // The subject names the studio (studio.config.json): writing follows a renamed studio.
    if (write)
      config = config.replace(
        new RegExp(`(\\[auth\\.email\\.template\\.${t.kind}\\]\\nsubject = )"[^"\\n]*"`),
        `$1${JSON.stringify(t.subject)}`,
      );
    if (!config.includes(section)) stale.push(`supabase/config.toml: ${section.replace(/\n/g, ' / ')}`);
  }
  if (config !== committed) writeFileSync(configPath, config);
  return stale;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  staleAuthTemplates(!check).then(
    (stale) => {
      if (stale.length) {
        console.error(`Out of date (run npm run email:templates):\n  ${stale.join('\n  ')}`);
        process.exitCode = 1;
      } else console.log(check ? 'Auth email templates are current.' : 'Auth email templates written.');
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
