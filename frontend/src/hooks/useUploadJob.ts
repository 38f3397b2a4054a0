// Creating a job from a spreadsheet (either upload dialog). Failure is logged, not toasted
// (docs/requirements.md, Create Job dialog); the dialog shows the reason. Success refreshes every jobs and
// lookups list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JobCreated } from '../client/types.gen';

export function useUploadJob<V>(upload: (values: V) => Promise<JobCreated>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: upload,
    meta: { toastOnError: false },
    onError: (err) => console.error('Upload failed:', err),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['jobs'] });
      void queryClient.invalidateQueries({ queryKey: ['lookups'] });
    },
  });
}
