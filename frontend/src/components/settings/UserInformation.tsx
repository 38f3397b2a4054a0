// "My profile" tab: full name (max 30) and email of the logged-in user.
import { FORM_MODE } from '../../lib/form-mode';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { updateUserMe } from '../../client/sdk.gen';
import type { UserPublic } from '../../client/types.gen';
import { currentUserQuery } from '../../hooks/useCurrentUser';
import { LIMITS, TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { emailRules } from '../../lib/validation';

interface ProfileForm {
  full_name: string;
  email: string;
}

export function UserInformation({ user }: { user: UserPublic }) {
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset, watch, formState } = useForm<ProfileForm>({
    mode: FORM_MODE,
    values: { full_name: user.full_name ?? '', email: user.email },
  });
  const email = watch('email');

  const mutation = useMutation({
    mutationFn: async (body: ProfileForm) => (await updateUserMe({ body })).data,
    onSuccess: (updated) => {
      queryClient.setQueryData(currentUserQuery.queryKey, updated);
      showSuccess(TOAST.userUpdated);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: ['users'] }),
      ]),
  });

  return (
    <form onSubmit={handleSubmit((v) => mutation.mutate(v))} noValidate>
      <Stack gap="sm" maw={480}>
        <Title order={4}>User Information</Title>
        <TextInput
          label="Full Name"
          placeholder="Full Name"
          maxLength={LIMITS.profileFullNameMax}
          error={formState.errors.full_name?.message}
          {...register('full_name', { maxLength: LIMITS.profileFullNameMax })}
        />
        <TextInput
          label="Email"
          placeholder="Email"
          type="email"
          error={formState.errors.email?.message}
          {...register('email', emailRules)}
        />
        <Group>
          {/* Spec §5: Save disabled when unchanged or email empty. */}
          <Button type="submit" disabled={!formState.isDirty || !email} loading={mutation.isPending}>
            Save
          </Button>
          <Button variant="default" onClick={() => reset()} disabled={!formState.isDirty || mutation.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
