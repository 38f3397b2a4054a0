// Mantine's base styles; each component's own CSS comes with the chunk that uses it
// (build/mantine-styles.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';

import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi } from './lib/api';
import { showApiError } from './lib/notify';
import { createQueryClient } from './lib/query-client';
import { clearToken } from './lib/session';
import { createAppRouter } from './router';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';
import { ColorSchemeClass } from './components/layout/ColorSchemeClass';
import { must } from '@app/domain/must';

const Toasts = lazy(async () => ({ default: (await import('./components/common/Toasts')).Toasts }));

const queryClient = createQueryClient(showApiError);
const router = createAppRouter(queryClient);

// A 403 on any call removes the stored token and goes to /login.
configureApi({
  onForbidden: () => {
    clearToken();
    queryClient.clear();
    if (router.state.location.pathname !== '/login') void router.navigate({ to: '/login' });
  },
});

createRoot(must(document.getElementById('root'), 'index.html has #root')).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      <ColorSchemeClass />
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
