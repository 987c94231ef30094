// The shared styles first: every other stylesheet (a feature's, with its screen) comes after them in the cascade.
import './styles/index.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastProvider } from './components/ui/toast';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './router';

const queryClient = createQueryClient({
  onSessionLost: () => {
    const { pathname, href } = router.state.location;
    if (pathname === '/login' || pathname === '/signup') return;
    void router.navigate({ to: '/login', search: { redirect: href } });
  },
});
const router = createAppRouter(queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
