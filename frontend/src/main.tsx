import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';

import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi } from './lib/api';
import { showApiError } from './lib/notify';
import { createQueryClient } from './lib/query-client';
import { clearToken } from './lib/session';
import { createAppRouter } from './router';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';
import { must } from '@app/domain/must';

const queryClient = createQueryClient(showApiError);
const router = createAppRouter(queryClient);

// Spec §8: a 403 on any call removes the stored token and goes to /login.
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
      <Notifications autoClose={5000} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
