import { StorageClient } from '@supabase/storage-js';
import { apiUrl, CLIENT_HEADERS, fetchWithAuth } from './supabase';

/**
 * Supabase Storage (the profile photo), loaded with the screen that uploads (decision
 * 0028), on the session of lib/supabase.ts as supabase-js's `storage` would be.
 */
export const storage = new StorageClient(apiUrl('storage'), CLIENT_HEADERS, fetchWithAuth);
