// Creating a job from a spreadsheet (either upload dialog). Failure is logged, not toasted
// (docs/requirements.md, Create Job dialog); the dialog shows the reason. Success refreshes every jobs and
// lookups list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JobCreated } from '../client/types.gen';
import { invalidateAll, jobsListKeys, lookupsKeys } from '../lib/query-keys';

export function useUploadJob<V>(upload: (values: V) => Promise<JobCreated>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: upload,
    meta: { toastOnError: false },
    onError: (err) => console.error('Upload failed:', err),
    onSuccess: () => {
      void invalidateAll(queryClient, [...jobsListKeys(), ...lookupsKeys()]);
    },
  });
}
