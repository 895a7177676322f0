/**
 * `npm run backup -- [file]` and `npm run restore -- <file>` (README: Backups). With DATABASE_URL
 * set, the project is the one it points at (hosted Supabase: also SUPABASE_URL and
 * SUPABASE_SERVICE_ROLE_KEY for its stored files); without, the local stack's data folder
 * (SUPABASE_LOCAL_DATA_DIR, default .data), which must be stopped.
 */
import { localDataDir, readLocalEnv } from '../../supabase/local/config';
import { StackInUseError } from '../../supabase/local/stack';
import { BackupError, readArchive, writeArchive } from './archive';
import { backupHosted, restoreHosted, type HostedProject } from './hosted';
import { backupLocal, restoreLocal } from './local';

function hostedProject(env: Record<string, string>): HostedProject | null {
  if (!env.DATABASE_URL) return null;
  const supabaseUrl = env.SUPABASE_URL;
  const serviceRoleKey = env.SUPABASE_SERVICE_ROLE_KEY;
  if (!supabaseUrl || !serviceRoleKey) {
    throw new BackupError('With DATABASE_URL set, SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are needed too (for the stored files).');
  }
  return { databaseUrl: env.DATABASE_URL, supabaseUrl, serviceRoleKey };
}

async function main(command: string | undefined, file: string | undefined): Promise<string> {
  const env = readLocalEnv();
  const project = hostedProject(env);
  const where = project ? new URL(project.supabaseUrl).host : localDataDir(env.SUPABASE_LOCAL_DATA_DIR);
  if (command === 'backup') {
    const path = file ?? `studio-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.json.gz`;
    const archive = project ? await backupHosted(project) : await backupLocal(where);
    writeArchive(path, archive);
    const rows = archive.tables.reduce((n, t) => n + t.count, 0);
    return `Backed up ${where} to ${path}: schema version ${archive.schemaVersion}, ${rows} rows in ${archive.tables.length} tables, ${archive.objects.length} stored files.`;
  }
  if (command === 'restore') {
    if (!file) throw new BackupError('Usage: npm run restore -- <archive file>');
    const archive = readArchive(file);
    if (project) await restoreHosted(project, archive);
    else await restoreLocal(where, archive);
    return `Restored ${file} (taken ${archive.createdAt} from ${archive.source}) into ${where}.`;
  }
  throw new BackupError('Usage: tsx scripts/backup/cli.ts backup [file] | restore <file>');
}

main(process.argv[2], process.argv[3]).then(
  (message) => console.log(message),
  (error: unknown) => {
    if (error instanceof BackupError || error instanceof StackInUseError) console.error(error.message);
    else console.error(error);
    process.exitCode = 1;
  },
);
