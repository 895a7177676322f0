import './embed.css';
import { readEmbedFilters } from './embed-filters';
import { fetchEmbedClasses, renderEmbed, renderEmbedError } from './schedule-embed';

// The embeddable timetable's whole program (embed/schedule/index.html, decision 0089). The data API
// is the site's own /rest/v1 (decision 0060), read with the public anon key as any visitor.
const root = document.getElementById('embed-root')!;
const studioName = root.dataset.studio ?? '';
const api = { restUrl: `${window.location.origin}/rest/v1`, anonKey: import.meta.env.VITE_SUPABASE_ANON_KEY as string };
fetchEmbedClasses(readEmbedFilters(window.location.search), api, new Date()).then(
  (classes) => renderEmbed(root, classes, window.location.origin, studioName),
  () => renderEmbedError(root, window.location.origin, studioName),
);
