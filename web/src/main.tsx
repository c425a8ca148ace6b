import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getConfig } from './config.ts';
import { reloadOnChunkError } from './lib/chunk-reload.ts';
import { createQueryClient } from './lib/query-client.ts';
import { createAppRouter } from './router.tsx';
import './styles.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Verity: the page has no #root element');

try {
  // Fail loudly and early: every API call depends on these bases.
  getConfig();
} catch (error) {
  rootElement.textContent = error instanceof Error ? error.message : String(error);
  rootElement.setAttribute('role', 'alert');
  throw error;
}

// Vite raises this when a route chunk's preload fails (typically after a deployment).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnChunkError(event.payload)) event.preventDefault();
});

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
