import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { createAppRouter, loadRouteModules } from './app/router';
import './index.css';

const container = document.getElementById('root')!;
// A public route arrives prerendered (scripts/prerender.ts): its lazy screens load before the
// router starts, so the first render is the HTML already on screen and hydrates it. Every other
// route arrives as the empty shell and renders from scratch.
const prerendered = container.hasChildNodes();
if (prerendered) await loadRouteModules(window.location);
const app = (
  <StrictMode>
    <AppProvider>
      <RouterProvider router={createAppRouter()} />
    </AppProvider>
  </StrictMode>
);
if (prerendered) hydrateRoot(container, app);
else createRoot(container).render(app);
